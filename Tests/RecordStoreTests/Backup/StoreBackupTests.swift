import EngineTestSupport
import Foundation
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
import Testing

/// Backups taken while a writer goes on, restored: the restored store answers records, change
/// tags, change tokens, cursors, signed tokens and assets as the original did at the backup's moment.
@Suite struct StoreBackupTests {
    /// One committed save of the writer: record `load-<n>` and the counter at `n`, in one save.
    struct CommittedSave: Sendable {
        var number: Int
        var records: [Record]
    }

    @Test(arguments: BackupTestStores.engines)
    func aBackupTakenDuringWritesRestoresItsMoment(engine: TestEngine) async throws {
        let location = try BackupTestStores.freshLocation(engine)
        let original = try await Store.open(url: location)
        let archive = ZoneID(zoneName: "Archive")
        try await original.createZone(archive)
        let startToken = try await original.currentChangeToken(for: .default)
        let startDatabaseToken = try await original.databaseChanges().token

        // Notes with assets, one note deleted (a tombstone), a record in another zone.
        var notes: [Record] = []
        for index in 0..<30 {
            var note = Record(recordType: "Note", recordID: RecordID(recordName: String(format: "note-%02d", index)))
            note["title"] = .string("Note \(index)")
            note["rank"] = .int(Int64(index % 7))
            note["attachment"] = try await original.saveAsset(Data("attachment \(index)".utf8)).value
            notes.append(note)
        }
        _ = try await original.save(notes)
        try await original.delete([RecordID(recordName: "note-29")])
        var archived = Record(recordType: "Note", recordID: RecordID(recordName: "old", zoneID: archive))
        archived["title"] = "archived"
        _ = try await original.save([archived])
        let query = try RecordQuery(recordType: "Note", predicate: FormatPredicate(format: "rank >= 0"), sorts: [Sort("rank"), Sort("title")])
        let firstPage = try await original.records(matching: query, resultsLimit: 10)
        let cursor = try #require(firstPage.cursor)
        let download = original.cursorSigner.signToken(purpose: "download", fields: ["note-00"], expires: nil)

        // The writer: each save makes load-<n> and sets the counter to n, atomically.
        let (saves, announce) = AsyncStream.makeStream(of: CommittedSave.self)
        let savesMade = LockedState(0)
        let stop = LockedState(false)
        let writer = Task {
            // A writer that fails ends the stream too: the test then sees its error, never waits.
            defer { announce.finish() }
            var number = 0
            var counter = Record(recordType: "Counter", recordID: RecordID(recordName: "counter"))
            while !stop.withLock({ $0 }) {
                number += 1
                var load = Record(recordType: "Load", recordID: RecordID(recordName: "load-\(number)"))
                load["number"] = .int(Int64(number))
                counter["value"] = .int(Int64(number))
                let saved = try await original.save([load, counter])
                counter = try #require(saved.first { $0.recordType == "Counter" })
                savesMade.withLock { $0 = number }
                announce.yield(CommittedSave(number: number, records: saved))
            }
        }
        var committed: [Int: CommittedSave] = [:]
        var iterator = saves.makeAsyncIterator()
        while committed.count < 5, let save = await iterator.next() { committed[save.number] = save }

        let backupPath = BackupTestStores.freshBackupPath()
        let manifest = try await original.backup(to: backupPath)
        // Five saves certainly after the backup (begun after it returned).
        let madeByTheBackupsEnd = savesMade.withLock { $0 }
        while (committed.keys.max() ?? 0) < madeByTheBackupsEnd + 5, let save = await iterator.next() { committed[save.number] = save }
        stop.withLock { $0 = true }
        while let save = await iterator.next() { committed[save.number] = save }
        _ = try await writer.value
        #expect(manifest.engine == engine.engineName)

        let restored = try await Store.restore(from: backupPath, to: try BackupTestStores.freshLocation(engine))
        #expect(restored.engine.secret.storeIdentifier != original.engine.secret.storeIdentifier)

        // The writer's saves the backup holds: all those up to the counter, none after.
        let counter = try #require(try await restored.record(for: RecordID(recordName: "counter")))
        guard case .int(let last) = counter["value"] else { Issue.record("the counter has no value"); return }
        let lastSave = try #require(committed[Int(last)])
        #expect(counter == lastSave.records.first { $0.recordType == "Counter" })
        let loads = try await restored.records(ofType: "Load", matching: FormatPredicate(format: "TRUEPREDICATE"))
        #expect(Set(loads.map(\.recordID.recordName)) == Set((1...Int(last)).map { "load-\($0)" }))
        for load in loads {
            guard case .int(let number) = load["number"] else { Issue.record("load without number"); continue }
            #expect(load == committed[Int(number)]?.records.first { $0.recordType == "Load" })
        }
        #expect(committed.keys.max() ?? 0 > Int(last), "the writer went on after the backup")

        // Every other record as the original has it (the writer touched none), change tags included.
        for zone in [ZoneID.default, archive] {
            let restoredNotes = try await restored.records(ofType: "Note", matching: FormatPredicate(format: "TRUEPREDICATE"), sorts: [Sort("title")], zone: zone)
            let originalNotes = try await original.records(ofType: "Note", matching: FormatPredicate(format: "TRUEPREDICATE"), sorts: [Sort("title")], zone: zone)
            #expect(restoredNotes == originalNotes)
        }
        #expect(try await restored.zones() == original.zones())
        for note in notes.dropLast() {
            guard let asset = Asset(note["attachment"]) else { Issue.record("note without asset"); continue }
            #expect(try await restored.assetData(asset) == original.assetData(asset))
        }

        // Tokens, a cursor and a signed token of the original from before the backup continue.
        let changes = try await restored.changes(in: .default, since: startToken, limit: 1000)
        #expect(Set(changes.changedRecords.map(\.recordID.recordName))
            == Set(notes.dropLast().map(\.recordID.recordName) + (1...Int(last)).map { "load-\($0)" } + ["counter"]))
        #expect(changes.deletedRecords.map(\.recordID.recordName) == ["note-29"])
        let originalChanges = try await original.changes(in: .default, since: startToken, limit: 1000)
        let originalByName = Dictionary(uniqueKeysWithValues: originalChanges.changedRecords.map { ($0.recordID.recordName, $0) })
        for record in changes.changedRecords where record.recordType == "Note" {
            #expect(record == originalByName[record.recordID.recordName])
        }
        #expect(try await restored.databaseChanges(since: startDatabaseToken).changedZones.contains(archive))
        #expect(try await restored.records(continuingMatchFrom: cursor) == original.records(continuingMatchFrom: cursor))
        #expect(try restored.cursorSigner.openToken(download, purpose: "download") == ["note-00"])
    }
}
