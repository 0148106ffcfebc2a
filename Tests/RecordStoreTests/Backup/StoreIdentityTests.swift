import EngineTestSupport
import Foundation
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
import Testing

/// A restored store has an identity of its own: the original's change tokens minted after the
/// backup are refused, however far the restored store's history goes.
@Suite struct StoreIdentityTests {
    static func notes(_ names: ClosedRange<Int>, prefix: String) -> [Record] {
        names.map { index in
            var note = Record(recordType: "Note", recordID: RecordID(recordName: "\(prefix)-\(index)"))
            note["title"] = .string("\(prefix) \(index)")
            return note
        }
    }

    @Test(arguments: BackupTestStores.engines)
    func theOriginalsLaterTokensAreRefusedAfterTheRestoredStorePassesThem(engine: TestEngine) async throws {
        let original = try await Store.open(url: try BackupTestStores.freshLocation(engine))
        _ = try await original.save(Self.notes(1...3, prefix: "before"))
        let beforeBackup = try await original.currentChangeToken(for: .default)
        let backupPath = BackupTestStores.freshBackupPath()
        try await original.backup(to: backupPath)
        _ = try await original.save(Self.notes(1...5, prefix: "after"))
        let afterBackup = try await original.currentChangeToken(for: .default)
        let afterBackupDatabase = try await original.databaseChanges().token

        let restored = try await Store.restore(from: backupPath, to: try BackupTestStores.freshLocation(engine))
        // The restored store goes further than the original's token: still refused.
        for round in 1...3 { _ = try await restored.save(Self.notes(1...5, prefix: "restored-\(round)")) }
        await #expect(throws: RecordStoreError.changeTokenExpired(zone: .default)) {
            try await restored.changes(in: .default, since: afterBackup)
        }
        await #expect(throws: RecordStoreError.changeTokenExpired(zone: nil)) {
            try await restored.databaseChanges(since: afterBackupDatabase)
        }
        // The original's token from before the backup continues; so do the restored store's own.
        let continued = try await restored.changes(in: .default, since: beforeBackup)
        #expect(continued.changedRecords.count == 15)
        let own = try await restored.currentChangeToken(for: .default)
        _ = try await restored.save(Self.notes(1...1, prefix: "last"))
        #expect(try await restored.changes(in: .default, since: own).changedRecords.map(\.recordID.recordName) == ["last-1"])
        // The original does not take the restored store's tokens either.
        await #expect(throws: RecordStoreError.invalidChangeToken(.foreignStore)) {
            try await original.changes(in: .default, since: own)
        }
    }

    @Test(arguments: BackupTestStores.engines)
    func aBackupOfARestoredStoreContinuesEveryAncestorsEarlierTokens(engine: TestEngine) async throws {
        let original = try await Store.open(url: try BackupTestStores.freshLocation(engine))
        _ = try await original.save(Self.notes(1...2, prefix: "first"))
        let originalToken = try await original.currentChangeToken(for: .default)
        let firstBackup = BackupTestStores.freshBackupPath()
        try await original.backup(to: firstBackup)
        let restored = try await Store.restore(from: firstBackup, to: try BackupTestStores.freshLocation(engine))
        _ = try await restored.save(Self.notes(1...2, prefix: "second"))
        let restoredToken = try await restored.currentChangeToken(for: .default)
        let secondBackup = BackupTestStores.freshBackupPath()
        try await restored.backup(to: secondBackup)
        _ = try await restored.save(Self.notes(1...2, prefix: "lost"))
        let lostToken = try await restored.currentChangeToken(for: .default)

        let again = try await Store.restore(from: secondBackup, to: try BackupTestStores.freshLocation(engine))
        #expect(again.engine.secret.ancestors.count == 2)
        #expect(Set(try await again.changes(in: .default, since: originalToken).changedRecords.map(\.recordID.recordName)) == ["second-1", "second-2"])
        #expect(try await again.changes(in: .default, since: restoredToken).changedRecords.isEmpty)
        await #expect(throws: RecordStoreError.changeTokenExpired(zone: .default)) {
            try await again.changes(in: .default, since: lostToken)
        }
    }
}
