import Foundation
import GRDB
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Brings a record type's storage in step with a changed declaration of its fields' index types
/// (``IndexPolicy`` says what each type builds), on a populated table:
///
/// - what the old declaration built and the new one does not ask for is dropped: a field's
///   index (a location's band index too), its derived columns and their indexes, a list's
///   members, the full-text table when no field is searchable any more;
/// - what the new declaration asks for and ``SQLiteSchemaStorage/ensureIndexes(_:_:progress:)``
///   does not build is built: a list's members (from the lists the rows hold).
///
/// Queries give the same answers before and after; only their plans change.
///
/// ```swift
/// try SQLiteIndexChanges(db: db).apply(from: before, to: after)
/// ```
struct SQLiteIndexChanges {
    let db: Database
    /// Hears how filling list members goes.
    var progress: StoreOpeningProgressHandler?

    private func quote(_ name: String) -> String { SQLiteDialect.quote(name) }

    /// Drops and builds what changed between two declarations of one record type.
    func apply(from old: RecordTypeSchema, to new: RecordTypeSchema) throws {
        let tableName = TableLayout.recordTable(new.name)
        guard try db.tableExists(tableName) else { return }
        let table = quote(tableName)
        let list = SQLiteListTable(recordType: new.name)
        // The table's columns, read once; kept up to date as derived columns are dropped.
        var existing = Set(try db.columns(in: tableName).map(\.name))
        for field in new.fields {
            guard let before = old.field(named: field.name) else { continue }
            if before.isIndexed, !field.isIndexed, !field.type.isList {
                try db.execute(sql: "DROP INDEX IF EXISTS \(quote(TableLayout.fieldIndex(new.name, field: field.name)))")
            }
            let kept = Set(DerivedColumn.columns(for: field))
            for derived in DerivedColumn.columns(for: before) where !kept.contains(derived) {
                try db.execute(sql: "DROP INDEX IF EXISTS \(quote(TableLayout.derivedIndex(new.name, field: field.name, derived)))")
                let column = TableLayout.derivedColumn(field.name, derived)
                if existing.remove(column) != nil { try db.execute(sql: "ALTER TABLE \(table) DROP COLUMN \(quote(column))") }
            }
            if field.type.isList, before.isQueryable != field.isQueryable {
                if field.isQueryable {
                    try list.fill(field, db, progress: progress)
                } else {
                    try list.removeMembers(of: field.name, db)
                }
            }
        }
        if new.searchableFieldNames.isEmpty {
            try db.execute(sql: "DROP TABLE IF EXISTS \(quote(SQLiteLayout.fullTextTable(new.name)))")
        }
        for constraint in old.uniquenessConstraints where !new.uniquenessConstraints.contains(constraint) {
            try db.execute(sql: "DROP INDEX IF EXISTS \(quote(TableLayout.uniqueIndex(new.name, fields: constraint)))")
        }
    }
}
