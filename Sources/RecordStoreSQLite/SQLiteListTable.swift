import Foundation
import GRDB
@_spi(StorageEngine) import RecordStoreCore
import RecordStoreSQL

/// The list table of a record type (``TableLayout/listTable(_:)``): one row per member,
/// `(record, field, position, value)`, with the folded forms of string members in `value$c`
/// and `value$cd` (``DerivedColumn/memberColumns(for:)``), and its indexes: by record (for
/// rewrites), and by `(field, value, record)` and `(field, folded, record)` for list queries,
/// which a bulk load defers (``SQLiteDeferredIndexes``).
///
/// ```swift
/// try SQLiteListTable(recordType: "City").create(db, withSearchIndexes: true)
/// ```
struct SQLiteListTable {
    let recordType: String

    /// The folded member columns (``DerivedColumn/memberForms``), quoted and comma-separated.
    static let foldedColumnNames = DerivedColumn.memberForms.map { SQLiteDialect.quote(TableLayout.derivedColumn("value", $0)) }
        .joined(separator: ", ")

    private var table: String { SQLiteDialect.quote(TableLayout.listTable(recordType)) }

    /// The names of the indexes list queries seek (the ones a bulk load defers).
    var searchIndexes: [String] {
        ["\(recordType)$list$value"] + DerivedColumn.memberForms.map { "\(recordType)$list$\($0.rawValue)" }
    }

    /// Creates the table and its record index; the search indexes too unless a bulk load defers them.
    func create(_ db: Database, withSearchIndexes: Bool) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS \(table) (record INTEGER NOT NULL, field TEXT NOT NULL, position INTEGER NOT NULL, value, \(Self.foldedColumnNames));
            CREATE INDEX IF NOT EXISTS \(SQLiteDialect.quote("\(recordType)$list$record")) ON \(table) (record);
            """)
        if withSearchIndexes { try createSearchIndexes(db) }
    }

    /// Creates the indexes list queries seek.
    func createSearchIndexes(_ db: Database) throws {
        let columns = ["value"] + DerivedColumn.memberForms.map { TableLayout.derivedColumn("value", $0) }
        for (name, column) in zip(searchIndexes, columns) {
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(SQLiteDialect.quote(name)) ON \(table) (field, \(SQLiteDialect.quote(column)), record)")
        }
    }

    /// Adds the folded columns to a list table of an older layout and fills them.
    func addFoldedColumns(_ db: Database, progress: StoreOpeningProgressHandler? = nil) throws {
        let existing = Set(try db.columns(in: TableLayout.listTable(recordType)).map(\.name))
        for derived in DerivedColumn.memberForms where !existing.contains(TableLayout.derivedColumn("value", derived)) {
            try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(SQLiteDialect.quote(TableLayout.derivedColumn("value", derived)))")
        }
        try SQLiteDerivedColumns(db: db, progress: progress).fill(
            DerivedColumn.memberForms, from: "value", in: TableLayout.listTable(recordType),
            task: "Folding the list members of \(recordType)") { TableLayout.derivedColumn("value", $0) }
    }
}
