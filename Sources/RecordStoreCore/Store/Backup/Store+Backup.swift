import Foundation

extension Store {
    /// Writes a backup of the store into a new folder at `path`, while writers go on: one
    /// consistent snapshot of its records, schema, change history, metadata and assets (SQLite
    /// through its online backup API; PostgreSQL in one repeatable-read transaction). The
    /// folder's layout is ``StoreBackupManifest``'s; its manifest is written last.
    ///
    /// A store restored from it (`Store.restore(from:to:replacing:)`) answers every query,
    /// lookup, change token, cursor, change tag and asset download as this store did at the
    /// backup's moment, under a new store identity: change tokens this store makes after the
    /// backup are refused by the restored store.
    ///
    /// Throws ``RecordStoreError/backupRefused(_:)`` when `path` exists or the engine keeps no
    /// backups (memory).
    ///
    /// ```swift
    /// let store = try await Store.open(url: "sqlite:cities.sqlite")
    /// let manifest = try await store.backup(to: "/backups/cities-2026-11-25")
    /// print(manifest.historyPosition)
    /// ```
    @discardableResult
    public func backup(to path: String) async throws(RecordStoreError) -> StoreBackupManifest {
        guard let engine = engine as? any BackupCapableEngine else { throw .backupRefused(.engineUnsupported(engine: engine.name)) }
        try await BlockingWork.run { () throws(RecordStoreError) in
            guard !FileManager.default.fileExists(atPath: path) else { throw .backupRefused(.outputExists(path: path)) }
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw .storage("could not create the backup folder \(path): \(error.localizedDescription)")
            }
        }
        do {
            let position = try await metricsSlot.measure(.backup) { () async throws(RecordStoreError) in try await engine.writeBackup(into: path) }
            let manifest = StoreBackupManifest(
                engine: engine.name, storeIdentifier: Self.hexadecimal(engine.secret.storeIdentifier), historyPosition: position, created: Date())
            try await BlockingWork.run { () throws(RecordStoreError) in try manifest.write(to: path) }
            return manifest
        } catch {
            // An unfinished backup is removed, so that none is mistaken for a whole one.
            _ = try? await BlockingWork.run { () throws(RecordStoreError) in try? FileManager.default.removeItem(atPath: path) }
            throw error
        }
    }

    /// Restores the backup folder at `path` into the store `open` opens (each call a fresh
    /// handle of the same location, `location` naming it in errors), and gives it a new
    /// identity; the store, opened after. See `Store.restore(from:to:replacing:)`.
    package static func restore(
        from path: String, location: String, replacing: Bool, mode: SchemaMode,
        open: () async throws(RecordStoreError) -> any StorageEngine
    ) async throws(RecordStoreError) -> Store {
        let manifest = try await BlockingWork.run { () throws(RecordStoreError) in try StoreBackupManifest.read(from: path) }
        guard let target = try await open() as? any BackupCapableEngine else {
            throw .backupRefused(.engineUnsupported(engine: try await open().name))
        }
        guard target.name == manifest.engine else { throw .backupRefused(.engineMismatch(backup: manifest.engine, location: target.name)) }
        if !replacing, try await holdsData(target) { throw .backupRefused(.locationHoldsStore(location: location)) }
        try await target.restoreBackup(from: path)
        guard let restored = try await open() as? any BackupCapableEngine else { throw .backupRefused(.engineUnsupported(engine: target.name)) }
        // The restored store continues the backed-up store's history up to the backup (its
        // position: where a page read on the restored store ends can be further on, where the
        // positions are transaction IDs), under an identity of its own.
        let ancestors = restored.secret.ancestors
            + [StoreAncestor(storeIdentifier: restored.secret.storeIdentifier, lastPosition: manifest.historyPosition)]
        try await restored.adoptIdentity(StoreSecret.random().storeIdentifier, ancestors: ancestors)
        return Store(engine: try await open(), mode: mode)
    }

    /// Whether an engine's store holds anything a restore would lose: history (a zone changed,
    /// created or deleted at a position after 0, or history pruned), a schema, or a zone besides
    /// the default one.
    private static func holdsData(_ engine: any StorageEngine) async throws(RecordStoreError) -> Bool {
        let history = try await engine.zoneHistory(after: HistoryPosition(position: 0), limit: 1)
        if !history.entries.isEmpty || history.floor > 0 { return true }
        if try await !engine.catalog().recordTypes.isEmpty { return true }
        return try await engine.zones().contains { $0 != .default }
    }

    private static func hexadecimal(_ bytes: [UInt8]) -> String {
        Hexadecimal.lowercase(bytes)
    }
}
