import Foundation
import GRDB
import RecordStore

/// What a benchmark's data takes: a SQLite database on disk (after a checkpoint) and the JSON
/// lines it was imported from, in megabytes of 10^6 bytes.
///
/// ```swift
/// let megabytes = StorageSize.megabytes(try StorageSize.sqliteBytes(path))
/// ```
enum StorageSize {
    /// The bytes of a SQLite database: the file plus its `-wal`, once the log is checkpointed
    /// into the file (`wal_checkpoint(TRUNCATE)`), as a copy of the store would take.
    static func sqliteBytes(_ path: String) throws -> Int64 {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try queue.close()
        return ["", "-wal"].reduce(Int64(0)) { total, suffix in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + suffix)
            return total + ((attributes?[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }

    /// The bytes of a (gzipped) JSON-lines dataset once decompressed, line breaks included.
    static func jsonLinesBytes(_ dataset: String) throws -> Int64 {
        let reader = try CompressedFileReader(path: Datasets.path(dataset))
        var bytes: Int64 = 0
        while let line = reader.nextLine() { bytes += Int64(line.count) + 1 }
        return bytes
    }

    /// Bytes as megabytes (10^6 bytes).
    static func megabytes(_ bytes: Int64) -> Double {
        Double(bytes) / 1_000_000
    }
}
