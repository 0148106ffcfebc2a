import Foundation
import GRDB
@_spi(StorageEngine) import RecordStoreCore
import RecordStoreSQL

/// Bulk loading with the B-tree indexes built once at the end: an import into a new or small
/// record type drops (or never creates) the type's field indexes, derived-column indexes and
/// list-member index, loads the rows, then builds each index in one sorted pass, which is far
/// cheaper than keeping them up to date row by row.
///
/// The record types whose indexes wait are listed in the `$metadata` table, written in the
/// transaction that drops them and cleared in the one that builds them: if the process dies in
/// between, opening the store builds them (``finish(_:catalog:)``). Queries stay exact while
/// indexes wait, only slower; the full-text and R*Tree tables are kept up to date row by row,
/// so searches never miss a loaded record.
///
/// ```swift
/// try SQLiteDeferredIndexes(db: db).defer("City")   // before the first batch
/// // ... batches ...
/// try SQLiteDeferredIndexes(db: db).finish(catalog) // after the last
/// ```
struct SQLiteDeferredIndexes {
    let db: Database
    /// Hears which record type's indexes are being built.
    var progress: StoreOpeningProgressHandler?

    private static let namePrefix = "deferredIndexes:"
    private var metadata: String { SQLiteDialect.quote(SQLiteStoreSecret.table) }
    private func quote(_ name: String) -> String { SQLiteDialect.quote(name) }

    /// Whether the record type's indexes wait for the end of a bulk load.
    func isDeferred(_ recordType: String) throws -> Bool {
        try SQLiteStoreMetadata(db: db).value(named: Self.namePrefix + recordType, as: Data.self) != nil
    }

    /// Drops the record type's B-tree indexes (those a table of that type has, now or when
    /// created) and records that they wait.
    func `defer`(_ recordType: String, catalog: SchemaCatalog) throws {
        try SQLiteStoreMetadata(db: db).setValue(Data(), named: Self.namePrefix + recordType)
        for index in SQLiteListTable(recordType: recordType).searchIndexes {
            try db.execute(sql: "DROP INDEX IF EXISTS \(quote(index))")
        }
        for field in catalog.recordTypes[recordType]?.fields ?? [] {
            try db.execute(sql: "DROP INDEX IF EXISTS \(quote(TableLayout.fieldIndex(recordType, field: field.name)))")
            for derived in DerivedColumn.allCases {
                try db.execute(sql: "DROP INDEX IF EXISTS \(quote(TableLayout.derivedIndex(recordType, field: field.name, derived)))")
            }
        }
    }

    /// Builds the indexes of every record type whose indexes wait, and clears the list.
    func finish(_ catalog: SchemaCatalog) throws {
        let names = try String.fetchAll(
            db, sql: "SELECT name FROM \(metadata) WHERE name LIKE ? ESCAPE '\\'", arguments: [Self.namePrefix + "%"])
        for name in names {
            let recordType = String(name.dropFirst(Self.namePrefix.count))
            try db.execute(sql: "DELETE FROM \(metadata) WHERE name = ?", arguments: [name])
            guard let schema = catalog.recordTypes[recordType],
                  try db.tableExists(TableLayout.recordTable(recordType)) else { continue }
            try SQLiteListTable(recordType: recordType).createSearchIndexes(db)
            try SQLiteSchemaStorage().ensureIndexes(schema, db, progress: progress)
        }
    }
}
