import Foundation

/// What a backup holds, written as `manifest.json` in the backup folder, last (a folder without
/// it is an unfinished backup, refused by a restore).
///
/// A backup is a folder:
///
/// | path | content |
/// |---|---|
/// | `manifest.json` | this manifest |
/// | `store.sqlite` | SQLite: the database file, copied by SQLite's online backup API |
/// | `assets/` | SQLite: the asset files (`<sha256 hex>-<size>`, and `pending/`, `claims/`) |
/// | `tables/<n>.jsonl` | PostgreSQL: one table of the store's schema, one JSON object a row |
///
/// ```swift
/// let manifest = try await store.backup(to: "/backups/cities-2026-11-25")
/// manifest.engine            // "sqlite"
/// manifest.historyPosition   // the history position the backup holds
/// ```
public struct StoreBackupManifest: Sendable, Hashable, Codable {
    /// The layout version this library writes and reads.
    public static let currentFormat = 1
    /// The manifest's file name in the backup folder.
    public static let fileName = "manifest.json"

    /// The layout version of the backup folder.
    public var format: Int
    /// The engine that wrote it (`sqlite`, `postgres`): a backup restores into a store of the same engine.
    public var engine: String
    /// The backed-up store's identifier, in hexadecimal.
    public var storeIdentifier: String
    /// The store's history position in the backup.
    public var historyPosition: Int64
    /// When the backup was taken.
    public var created: Date

    /// A manifest of the current format.
    public init(engine: String, storeIdentifier: String, historyPosition: Int64, created: Date) {
        self.format = Self.currentFormat
        self.engine = engine
        self.storeIdentifier = storeIdentifier
        self.historyPosition = historyPosition
        self.created = created
    }

    /// Reads and checks the manifest of the backup folder at `path`.
    ///
    /// ```swift
    /// let manifest = try StoreBackupManifest.read(from: "/backups/nightly")
    /// ```
    public static func read(from path: String) throws(RecordStoreError) -> StoreBackupManifest {
        let file = URL(fileURLWithPath: path).appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw .backupRefused(.notABackup(path: path, reason: "it has no \(fileName) (a backup cut off before its end has none)"))
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let manifest = try? decoder.decode(StoreBackupManifest.self, from: data) else {
            throw .backupRefused(.notABackup(path: path, reason: "its \(fileName) is not a backup manifest"))
        }
        guard manifest.format == currentFormat else {
            throw .backupRefused(.notABackup(path: path, reason: "its format \(manifest.format) is not \(currentFormat), the one this version reads"))
        }
        return manifest
    }

    /// Writes the manifest into the backup folder at `path`.
    func write(to path: String) throws(RecordStoreError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            let data = try encoder.encode(self)
            try data.write(to: URL(fileURLWithPath: path).appendingPathComponent(Self.fileName), options: .withoutOverwriting)
        } catch {
            throw .storage("could not write the backup manifest in \(path): \(error.localizedDescription)")
        }
    }
}
