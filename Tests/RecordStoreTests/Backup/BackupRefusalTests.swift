import EngineTestSupport
import Foundation
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
import Testing

/// What backups and restores refuse, and that a refusal writes nothing.
@Suite struct BackupRefusalTests {
    static func storeWithANote(_ engine: TestEngine) async throws -> (Store, String) {
        let location = try BackupTestStores.freshLocation(engine)
        let store = try await Store.open(url: location)
        var note = Record(recordType: "Note", recordID: RecordID(recordName: "n1"))
        note["title"] = "kept"
        _ = try await store.save([note])
        return (store, location)
    }

    @Test(arguments: BackupTestStores.engines)
    func aLocationHoldingAStoreIsReplacedOnlyWhenAsked(engine: TestEngine) async throws {
        let (original, _) = try await Self.storeWithANote(engine)
        let backupPath = BackupTestStores.freshBackupPath()
        try await original.backup(to: backupPath)
        let (other, otherLocation) = try await Self.storeWithANote(engine)
        var extra = Record(recordType: "Other", recordID: RecordID(recordName: "x"))
        extra["value"] = 1
        _ = try await other.save([extra])

        await #expect(throws: RecordStoreError.backupRefused(.locationHoldsStore(location: otherLocation))) {
            try await Store.restore(from: backupPath, to: otherLocation)
        }
        #expect(try await other.record(for: RecordID(recordName: "x")) != nil, "a refused restore leaves the store as it was")
        let replaced = try await Store.restore(from: backupPath, to: otherLocation, replacing: true)
        #expect(try await replaced.record(for: RecordID(recordName: "x")) == nil)
        #expect(try await replaced.record(for: RecordID(recordName: "n1")) == original.record(for: RecordID(recordName: "n1")))
    }

    @Test(arguments: BackupTestStores.engines)
    func aBackupNeverOverwritesAndAnUnfinishedOneIsRefused(engine: TestEngine) async throws {
        let (store, _) = try await Self.storeWithANote(engine)
        let backupPath = BackupTestStores.freshBackupPath()
        try await store.backup(to: backupPath)
        await #expect(throws: RecordStoreError.backupRefused(.outputExists(path: backupPath))) {
            try await store.backup(to: backupPath)
        }
        try FileManager.default.removeItem(atPath: backupPath + "/" + StoreBackupManifest.fileName)
        let reason = "it has no manifest.json (a backup cut off before its end has none)"
        await #expect(throws: RecordStoreError.backupRefused(.notABackup(path: backupPath, reason: reason))) {
            try await Store.restore(from: backupPath, to: try BackupTestStores.freshLocation(engine))
        }
    }

    @Test(arguments: BackupTestStores.engines)
    func aBackupRestoresOnlyIntoAStoreOfItsEngine(engine: TestEngine) async throws {
        let (store, _) = try await Self.storeWithANote(engine)
        let backupPath = BackupTestStores.freshBackupPath()
        let manifest = try await store.backup(to: backupPath)
        let otherEngine = engine == .sqlite ? "postgres" : "sqlite"
        // The manifest names another engine than the location's.
        var foreign = manifest
        foreign.engine = otherEngine
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(foreign).write(to: URL(fileURLWithPath: backupPath + "/" + StoreBackupManifest.fileName))
        await #expect(throws: RecordStoreError.backupRefused(.engineMismatch(backup: otherEngine, location: engine.engineName))) {
            try await Store.restore(from: backupPath, to: try BackupTestStores.freshLocation(engine))
        }
        // The memory engine keeps no backups.
        await #expect(throws: RecordStoreError.backupRefused(.engineUnsupported(engine: "memory"))) {
            try await Store.restore(from: backupPath, to: "memory:")
        }
        await #expect(throws: RecordStoreError.backupRefused(.engineUnsupported(engine: "memory"))) {
            try await Store.inMemory().backup(to: BackupTestStores.freshBackupPath())
        }
    }
}
