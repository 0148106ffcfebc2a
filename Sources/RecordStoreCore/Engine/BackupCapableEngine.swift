/// An engine that writes consistent backups of its store while writers go on, and restores
/// them (``Store/backup(to:)``, `Store.restore(from:to:replacing:)`): SQLite and PostgreSQL.
/// The backup folder's layout is ``StoreBackupManifest``'s.
///
/// ```swift
/// guard let engine = store.engine as? any BackupCapableEngine else { throw ... }
/// let position = try await engine.writeBackup(into: "/backups/nightly")
/// ```
@_spi(StorageEngine) public protocol BackupCapableEngine: StorageEngine {
    /// Writes one consistent snapshot of the store, its assets included, into `folder` (an
    /// empty folder that exists), without stopping writers; returns the history position the
    /// snapshot holds.
    func writeBackup(into folder: String) async throws(RecordStoreError) -> Int64

    /// Replaces everything the store holds with the backup's content in `folder` (its manifest
    /// checked by the caller): records, schema, history, metadata and assets. The engine's
    /// handles are stale afterwards: the caller opens the store again.
    func restoreBackup(from folder: String) async throws(RecordStoreError)

    /// Gives the store a new identity: `storeIdentifier` replaces its identifier, and the list
    /// of stores it continues becomes `ancestors`. The cursor key stays. The engine's handles are
    /// stale afterwards: the caller opens the store again.
    func adoptIdentity(_ storeIdentifier: [UInt8], ancestors: [StoreAncestor]) async throws(RecordStoreError)
}
