// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
@_spi(StorageEngine) import RecordStoreCore

/// The `tables/` folder of a PostgreSQL backup: `tables.json` lists each table of the store's
/// schema with the columns backed up (stored generated columns are left out: they are computed
/// again), and the schema's sequences with their values; each table's rows are in files
/// `<table number>-<batch number>.jsonl`, one JSON object (`row_to_json`) a line, a batch of at
/// most ``rowsPerBatch`` rows a file, so that a restore holds one batch in memory at a time.
///
/// ```swift
/// let tables = try PostgresBackupTables.read(from: "/backups/nightly")
/// tables.tables.map(\.name)   // ["$assets", "$history", "City", ...]
/// ```
struct PostgresBackupTables: Codable, Sendable {
    /// One table: its name, its backed-up columns, and how many batch files hold its rows.
    struct Table: Codable, Sendable {
        var name: String
        var columns: [String]
        var batches: Int
    }

    /// One sequence and its state (`last_value`, `is_called`), as `setval` takes them.
    struct Sequence: Codable, Sendable {
        var name: String
        var lastValue: Int64
        var isCalled: Bool
    }

    var tables: [Table] = []
    var sequences: [Sequence] = []
    /// The change position of the backup's snapshot (nil in a backup made before it was kept):
    /// a restore makes every new position greater.
    var changePosition: Int64?

    static let folderName = "tables"
    static let listName = "tables.json"
    /// Rows a batch file holds at most (an asset chunk row is at most `Asset.chunkSize` bytes, twice that as JSON).
    static let rowsPerBatch = 64

    /// The path of a batch file of the table at `index`.
    static func batchPath(in backup: String, table index: Int, batch: Int) -> String {
        "\(backup)/\(folderName)/\(index)-\(batch).jsonl"
    }

    /// Writes the rows of one batch (one JSON text a row).
    static func writeBatch(_ rows: [String], to path: String) async throws(RecordStoreError) {
        let data = Data((rows.joined(separator: "\n") + "\n").utf8)
        try await BlockingWork.run { () throws(RecordStoreError) in
            do {
                try FileManager.default.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try data.write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
            } catch {
                throw .storage("could not write the backup file \(path): \(error.localizedDescription)")
            }
        }
    }

    /// The rows of one batch file, as a JSON array's text.
    static func readBatch(at path: String) async throws(RecordStoreError) -> String {
        try await BlockingWork.run { () throws(RecordStoreError) -> String in
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .storage("the backup file \(path) is missing")
            }
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
            return "[" + lines.joined(separator: ",") + "]"
        }
    }

    /// Writes the list into the backup folder.
    func write(to backup: String) async throws(RecordStoreError) {
        let path = "\(backup)/\(Self.folderName)/\(Self.listName)"
        let data: Data
        do {
            data = try JSONEncoder().encode(self)
        } catch {
            throw .storage("could not encode the backup's table list: \(error.localizedDescription)")
        }
        try await BlockingWork.run { () throws(RecordStoreError) in
            do {
                try FileManager.default.createDirectory(atPath: "\(backup)/\(Self.folderName)", withIntermediateDirectories: true)
                try data.write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
            } catch {
                throw .storage("could not write \(path): \(error.localizedDescription)")
            }
        }
    }

    /// Reads the list of the backup folder at `backup`.
    static func read(from backup: String) async throws(RecordStoreError) -> PostgresBackupTables {
        let path = "\(backup)/\(folderName)/\(listName)"
        return try await BlockingWork.run { () throws(RecordStoreError) -> PostgresBackupTables in
            guard let data = FileManager.default.contents(atPath: path),
                  let tables = try? JSONDecoder().decode(PostgresBackupTables.self, from: data) else {
                throw .backupRefused(.notABackup(path: backup, reason: "it has no readable \(folderName)/\(listName)"))
            }
            return tables
        }
    }
}
#endif
