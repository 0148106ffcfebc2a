import Foundation
import GRDB
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Backups of a SQLite store: the database file copied by SQLite's online backup API (one read
/// transaction, so one snapshot, while writers go on in the WAL), as `store.sqlite` in the
/// backup folder, then its asset files under `assets/` (``SQLiteBackupAssets``).
///
/// ```swift
/// let position = try await engine.writeBackup(into: "/backups/nightly")
/// ```
extension SQLiteEngine: BackupCapableEngine {
    /// The database file's name in a backup folder.
    static let backupFileName = "store.sqlite"

    func writeBackup(into folder: String) async throws(RecordStoreError) -> Int64 {
        let (pool, assets) = (pool, assetFiles.folder)
        let copyPath = folder + "/" + Self.backupFileName
        let position = try await BlockingWork.run { () throws(RecordStoreError) -> Int64 in
            do {
                let copy = try DatabaseQueue(path: copyPath)
                try pool.backup(to: copy)
                // A rollback-journal file is one file: it opens anywhere, read-only too.
                try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
                let position = try copy.read { db in
                    try Int64.fetchOne(db, sql: "SELECT position FROM \(SQLiteDialect.quote(TableLayout.historyTable))")
                }
                try copy.close()
                return position ?? 0
            } catch {
                throw Self.storeError(error)
            }
        }
        // Assets are immutable files named by their content: those of the snapshot's records
        // are all there after it (a sweep removes only pending uploads).
        try await BlockingWork.run { () throws(RecordStoreError) in
            try SQLiteBackupAssets.copy(from: assets, to: folder + "/" + SQLiteBackupAssets.folderName)
        }
        return position
    }

    func restoreBackup(from folder: String) async throws(RecordStoreError) {
        let (pool, assets) = (pool, assetFiles.folder)
        let sourcePath = folder + "/" + Self.backupFileName
        try await BlockingWork.run { () throws(RecordStoreError) in
            guard FileManager.default.fileExists(atPath: sourcePath) else {
                throw .backupRefused(.notABackup(path: folder, reason: "it has no \(Self.backupFileName)"))
            }
            do {
                var configuration = Configuration()
                configuration.readonly = true
                let source = try DatabaseQueue(path: sourcePath, configuration: configuration)
                try source.backup(to: pool)
                try source.close()
            } catch {
                throw Self.storeError(error)
            }
            try SQLiteBackupAssets.replace(assets, with: folder + "/" + SQLiteBackupAssets.folderName)
        }
    }

    func adoptIdentity(_ storeIdentifier: [UInt8], ancestors: [StoreAncestor]) async throws(RecordStoreError) {
        try await pool.writeReleasingFirst { db in
            let metadata = SQLiteStoreMetadata(db: db)
            try metadata.setValue(Data(storeIdentifier), named: "storeIdentifier")
            try metadata.setValue(Data(StoreAncestor.encoded(ancestors)), named: StoreAncestor.metadataName)
        }
    }
}
