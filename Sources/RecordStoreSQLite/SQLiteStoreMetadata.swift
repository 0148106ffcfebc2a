import Foundation
import GRDB
@_spi(StorageEngine) import RecordStoreSQL

/// Named values in the store's `$metadata` table (``SQLiteStoreSecret/table``): the layout
/// version, the collation version of the stored sort keys, the record types whose indexes a
/// bulk load deferred. Read and written in the caller's transaction.
///
/// ```swift
/// let metadata = SQLiteStoreMetadata(db: db)
/// try metadata.setValue(Int64(4), named: "layoutVersion")
/// try metadata.value(named: "layoutVersion", as: Int64.self)   // 4
/// ```
struct SQLiteStoreMetadata {
    let db: Database

    private var table: String { SQLiteDialect.quote(SQLiteStoreSecret.table) }

    /// The value stored under a name, nil when there is none.
    func value<Value: DatabaseValueConvertible>(named name: String, as type: Value.Type = Value.self) throws -> Value? {
        try Value.fetchOne(db, sql: "SELECT value FROM \(table) WHERE name = ?", arguments: [name])
    }

    /// Stores a value under a name, replacing the one stored there.
    func setValue(_ value: some DatabaseValueConvertible, named name: String) throws {
        try db.execute(
            sql: "INSERT INTO \(table) (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            arguments: [name, value])
    }
}
