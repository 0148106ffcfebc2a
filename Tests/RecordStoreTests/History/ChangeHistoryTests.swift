import EngineTestSupport
import Foundation
import PredicateLanguage
import TestSupport
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// The change history (issue #31, item 1) on every engine: a zone's changes since a token (each
/// record once in its latest state, tombstones, paging with `moreComing`), record-type and key
/// filters, the database's zone changes, expired and refused tokens, and tombstones that
/// survive reopening a store.
@Suite("Change history")
struct ChangeHistoryTests {
    static let notes = ZoneID(zoneName: "Notes")

    static func note(_ name: String, _ text: String = "", zone: ZoneID = notes, type: String = "Note") -> Record {
        Record(recordType: type, recordID: RecordID(recordName: name, zoneID: zone), fields: ["text": .string(text.isEmpty ? name : text), "words": .int(3)])
    }

    static func id(_ name: String, zone: ZoneID = notes) -> RecordID { RecordID(recordName: name, zoneID: zone) }

    /// Saves records over whatever is stored (an edit).
    static func edit(_ store: Store, _ records: [Record]) async throws {
        _ = try await store.save(records, policy: .allKeys)
    }

    static func makeStore(_ engine: TestEngine) async throws -> Store {
        let store = try engine.makeStore()
        try await store.createZone(notes)
        return store
    }

    /// Every change of a zone from a token on, following `moreComing`: (saved names with their
    /// text, deleted names, the last token).
    static func drain(_ store: Store, since token: ChangeToken?, limit: Int = 200, zone: ZoneID = notes) async throws
        -> (saved: [String], deleted: [String], token: ChangeToken, pages: Int)
    {
        var saved: [String] = []
        var deleted: [String] = []
        var token = token
        var pages = 0
        while true {
            let changes = try await store.changes(in: zone, since: token, limit: limit)
            pages += 1
            saved += changes.changedRecords.map { record in
                guard case .string(let text)? = record.fields["text"] else { return record.recordID.recordName }
                return "\(record.recordID.recordName)=\(text)"
            }
            deleted += changes.deletedRecords.map(\.recordID.recordName)
            token = changes.token
            if !changes.moreComing { break }
        }
        return (saved, deleted, token ?? ChangeToken(stringValue: ""), pages)
    }

    @Test("A first call returns the zone; the next ones only what changed since, each record once", arguments: TestEngine.allCases)
    func changesSinceAToken(engine: TestEngine) async throws {
        let store = try await Self.makeStore(engine)
        _ = try await store.save((1...5).map { Self.note("n\($0)") })
        let first = try await store.changes(in: Self.notes)
        #expect(first.changedRecords.map(\.recordID.recordName) == ["n1", "n2", "n3", "n4", "n5"])
        #expect(first.deletedRecords.isEmpty)
        #expect(!first.moreComing)

        try await Self.edit(store, [Self.note("n2", "second")])
        try await store.delete([Self.id("n3")])
        _ = try await store.save([Self.note("n6")])
        _ = try await store.save([Self.note("n7")])
        try await store.delete([Self.id("n7")])
        try await Self.edit(store, [Self.note("n2", "third")])   // n2 once, in its latest state, at its last change

        let next = try await store.changes(in: Self.notes, since: first.token)
        #expect(next.changedRecords.map(\.recordID.recordName) == ["n6", "n2"])
        #expect(next.changedRecords.last?.fields["text"] == .string("third"))
        #expect(next.deletedRecords == [
            DeletedRecord(recordID: Self.id("n3"), recordType: "Note"), DeletedRecord(recordID: Self.id("n7"), recordType: "Note"),
        ])
        #expect(!next.moreComing)

        // Nothing since: nothing, and a token that still continues.
        let quiet = try await store.changes(in: Self.notes, since: next.token)
        #expect(quiet.changedRecords.isEmpty && quiet.deletedRecords.isEmpty && !quiet.moreComing)
        try await Self.edit(store, [Self.note("n3", "back")])   // a deleted record created again is a change, not a deletion
        let back = try await store.changes(in: Self.notes, since: quiet.token)
        #expect(back.changedRecords.map(\.recordID.recordName) == ["n3"])
        #expect(back.deletedRecords.isEmpty)
        // The other zone saw none of it.
        let defaultZone = try await store.changes(in: .default)
        #expect(defaultZone.changedRecords.isEmpty && defaultZone.deletedRecords.isEmpty)
    }

    @Test("Small limits page through one commit and many, with moreComing, each change once", arguments: TestEngine.allCases)
    func pagingWithMoreComing(engine: TestEngine) async throws {
        let store = try await Self.makeStore(engine)
        _ = try await store.save((10...34).map { Self.note("n\($0)") })   // one commit of 25
        let all = try await Self.drain(store, since: nil, limit: 10)
        #expect(all.pages == 3)
        #expect(all.saved == (10...34).map { "n\($0)=n\($0)" })
        for index in 0..<7 {
            try await Self.edit(store, [Self.note("n\(10 + index * 3)", "edit\(index)")])
            if index % 2 == 1 { try await store.delete([Self.id("n\(11 + index * 3)")]) }
        }
        let changed = try await Self.drain(store, since: all.token, limit: 2)
        #expect(changed.pages == 5)
        #expect(changed.saved == (0..<7).map { "n\(10 + $0 * 3)=edit\($0)" })
        #expect(changed.deleted == ["n14", "n20", "n26"])
        let after = try await store.changes(in: Self.notes, since: changed.token, limit: 2)
        #expect(after.changedRecords.isEmpty && after.deletedRecords.isEmpty && !after.moreComing)
    }

    @Test("Record types and desired keys filter what a call returns", arguments: TestEngine.allCases)
    func recordTypesAndDesiredKeys(engine: TestEngine) async throws {
        let store = try await Self.makeStore(engine)
        _ = try await store.save([Self.note("n1"), Self.note("t1", type: "Task"), Self.note("n2")])
        try await store.delete([Self.id("t1")])
        let notesOnly = try await store.changes(in: Self.notes, recordTypes: ["Note"])
        #expect(notesOnly.changedRecords.map(\.recordID.recordName) == ["n1", "n2"])
        #expect(notesOnly.deletedRecords.isEmpty)
        let tasksOnly = try await store.changes(in: Self.notes, recordTypes: ["Task"])
        #expect(tasksOnly.changedRecords.isEmpty)
        #expect(tasksOnly.deletedRecords.map(\.recordID.recordName) == ["t1"])
        let narrow = try await store.changes(in: Self.notes, desiredKeys: ["words"])
        #expect(narrow.changedRecords.map(\.fields) == [["words": .int(3)], ["words": .int(3)]])
    }

    @Test("The database's changes list zones created, changed and deleted since its token", arguments: TestEngine.allCases)
    func databaseChanges(engine: TestEngine) async throws {
        let store = try await Self.makeStore(engine)
        let archive = ZoneID(zoneName: "Archive")
        let trash = ZoneID(zoneName: "Trash")
        try await store.createZone(archive)
        try await store.createZone(trash)
        let first = try await store.databaseChanges()
        #expect(Set(first.changedZones) == [.default, Self.notes, archive, trash])
        #expect(first.deletedZones.isEmpty)

        _ = try await store.save([Self.note("n1")])
        try await store.deleteZone(trash)
        let work = ZoneID(zoneName: "Work")
        try await store.createZone(work)
        let next = try await store.databaseChanges(since: first.token)
        #expect(next.changedZones == [Self.notes, work])
        #expect(next.deletedZones == [trash])

        let paged = try await store.databaseChanges(since: nil, limit: 1)
        #expect(paged.moreComing && paged.changedZones.count + paged.deletedZones.count == 1)
        let quiet = try await store.databaseChanges(since: next.token)
        #expect(quiet.changedZones.isEmpty && quiet.deletedZones.isEmpty && !quiet.moreComing)
    }

    @Test("A token older than the kept tombstones, or than its zone, expires", arguments: TestEngine.allCases)
    func expiredTokens(engine: TestEngine) async throws {
        let store = try await Self.makeStore(engine)
        _ = try await store.save([Self.note("n1"), Self.note("n2")])
        let old = try await store.changes(in: Self.notes).token
        try await store.delete([Self.id("n1")])
        // Still kept: the deletion is there.
        #expect(try await store.changes(in: Self.notes, since: old).deletedRecords.map(\.recordID.recordName) == ["n1"])
        // Pruned (a day on, with a retention of an hour): the old token expires, a new one works.
        store.historyRetention = .seconds(3600)
        #expect(try await store.pruneHistory() == HistoryPruning(dropped: 0, kept: 1))
        #expect(try await store.pruneHistory(now: Date().addingTimeInterval(86_400)) == HistoryPruning(dropped: 1, kept: 0))
        await #expect(throws: RecordStoreError.changeTokenExpired(zone: Self.notes)) {
            try await store.changes(in: Self.notes, since: old)
        }
        let fresh = try await store.changes(in: Self.notes)
        #expect(fresh.changedRecords.map(\.recordID.recordName) == ["n2"] && fresh.deletedRecords.isEmpty)
        _ = try await store.save([Self.note("n3")])
        #expect(try await store.changes(in: Self.notes, since: fresh.token).changedRecords.map(\.recordID.recordName) == ["n3"])

        // A zone deleted and created again: its old tokens continue nothing.
        let before = try await store.currentChangeToken(for: Self.notes)
        try await store.deleteZone(Self.notes)
        try await store.createZone(Self.notes)
        await #expect(throws: RecordStoreError.changeTokenExpired(zone: Self.notes)) {
            try await store.changes(in: Self.notes, since: before)
        }
        await #expect(throws: RecordStoreError.zoneNotFound(ZoneID(zoneName: "Missing"))) {
            try await store.changes(in: ZoneID(zoneName: "Missing"))
        }
    }

    @Test("Tokens of another zone, of the database, of another store, or altered are refused", arguments: TestEngine.allCases)
    func refusedTokens(engine: TestEngine) async throws {
        let store = try await Self.makeStore(engine)
        let zoneToken = try await store.currentChangeToken(for: .default)
        await #expect(throws: RecordStoreError.invalidChangeToken(.zoneMismatch(cursor: "_defaultZone", given: "Notes"))) {
            try await store.changes(in: Self.notes, since: zoneToken)
        }
        let databaseToken = try await store.databaseChanges().token
        await #expect(throws: RecordStoreError.invalidChangeToken(.zoneMismatch(cursor: "(the database's zone changes)", given: "Notes"))) {
            try await store.changes(in: Self.notes, since: databaseToken)
        }
        let other = try await Self.makeStore(.memory)
        let foreign = try await other.currentChangeToken(for: Self.notes)
        await #expect(throws: RecordStoreError.invalidChangeToken(.foreignStore)) {
            try await store.changes(in: Self.notes, since: foreign)
        }
        var bytes = Array(zoneToken.stringValue)
        bytes[bytes.count / 2] = bytes[bytes.count / 2] == "A" ? "B" : "A"
        await #expect(throws: RecordStoreError.invalidChangeToken(.tampered)) {
            try await store.changes(in: .default, since: ChangeToken(stringValue: String(bytes)))
        }
        await #expect(throws: RecordStoreError.invalidChangeToken(.malformed)) {
            try await store.changes(in: .default, since: ChangeToken(stringValue: "not a token"))
        }
    }

    @Test("Tombstones and tokens survive reopening a SQLite store")
    func tombstonesAfterReopening() async throws {
        let path = TestEngine.temporaryDatabasePath("history-reopen")
        let token: ChangeToken
        do {
            let store = try Store.open(path: path)
            try await store.createZone(Self.notes)
            _ = try await store.save([Self.note("n1"), Self.note("n2")])
            token = try await store.changes(in: Self.notes).token
            try await store.delete([Self.id("n2")])
            try await Self.edit(store, [Self.note("n1", "edited")])
        }
        let reopened = try Store.open(path: path)
        let changes = try await reopened.changes(in: Self.notes, since: token)
        #expect(changes.changedRecords.map(\.recordID.recordName) == ["n1"])
        #expect(changes.changedRecords.first?.fields["text"] == .string("edited"))
        #expect(changes.deletedRecords.map(\.recordID.recordName) == ["n2"])
    }
}
