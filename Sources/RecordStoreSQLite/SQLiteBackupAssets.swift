import Foundation
@_spi(StorageEngine) import RecordStoreCore

/// The asset files of a SQLite store in its backups (``FileAssetStorage``'s folder): copied,
/// kept assets, pending uploads and the used upload claims alike; the `incoming` files (uploads
/// being written) are left out. Blocking file work: callers run it through `BlockingWork`.
///
/// ```swift
/// try SQLiteBackupAssets.copy(from: "cities.sqlite.assets", to: "/backups/nightly/assets")
/// ```
enum SQLiteBackupAssets {
    /// The assets' folder name in a backup folder.
    static let folderName = "assets"
    private static let skipped: Set<String> = ["incoming"]

    /// Copies the asset folder `source` (when there is one) to `destination`, which must not exist.
    static func copy(from source: String, to destination: String) throws(RecordStoreError) {
        let files = FileManager.default
        do {
            try files.createDirectory(atPath: destination, withIntermediateDirectories: true)
            guard files.fileExists(atPath: source) else { return }
            for entry in try files.contentsOfDirectory(atPath: source) where !skipped.contains(entry) {
                try files.copyItem(atPath: source + "/" + entry, toPath: destination + "/" + entry)
            }
        } catch {
            throw .storage("could not copy the assets of \(source) to \(destination): \(error.localizedDescription)")
        }
    }

    /// Replaces the store's asset folder `folder` with the backup's `backup` folder.
    static func replace(_ folder: String, with backup: String) throws(RecordStoreError) {
        do {
            if FileManager.default.fileExists(atPath: folder) { try FileManager.default.removeItem(atPath: folder) }
        } catch {
            throw .storage("could not remove the assets in \(folder) before restoring: \(error.localizedDescription)")
        }
        try copy(from: backup, to: folder)
    }
}
