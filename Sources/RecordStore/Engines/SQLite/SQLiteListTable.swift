import Foundation
import GRDB

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

    /// The folded member columns, quoted and comma-separated, in ``foldedColumns`` order.
    static let foldedColumnNames = foldedColumns.map { SQLiteDialect.quote(TableLayout.derivedColumn("value", $0)) }.joined(separator: ", ")
    /// The folded forms every string member has.
    static let foldedColumns: [DerivedColumn] = [.caseFolded, .caseAndDiacriticFolded]

    private var table: String { SQLiteDialect.quote(TableLayout.listTable(recordType)) }

    /// The names of the indexes list queries seek (the ones a bulk load defers).
    var searchIndexes: [String] {
        ["\(recordType)$list$value"] + Self.foldedColumns.map { "\(recordType)$list$\($0.rawValue)" }
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
        let columns = ["value"] + Self.foldedColumns.map { TableLayout.derivedColumn("value", $0) }
        for (name, column) in zip(searchIndexes, columns) {
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(SQLiteDialect.quote(name)) ON \(table) (field, \(SQLiteDialect.quote(column)), record)")
        }
    }

    /// Adds the folded columns to a list table of an older layout and fills them.
    func addFoldedColumns(_ db: Database, progress: StoreOpeningProgressHandler? = nil) throws {
        let existing = Set(try db.columns(in: TableLayout.listTable(recordType)).map(\.name))
        for derived in Self.foldedColumns where !existing.contains(TableLayout.derivedColumn("value", derived)) {
            try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(SQLiteDialect.quote(TableLayout.derivedColumn("value", derived)))")
        }
        let update = try db.makeStatement(sql: """
            UPDATE \(table) SET \(Self.foldedColumns.map { "\(SQLiteDialect.quote(TableLayout.derivedColumn("value", $0))) = ?" }.joined(separator: ", "))
            WHERE rowid = ?
            """)
        let members = try Row.fetchAll(db, sql: "SELECT rowid, value FROM \(table) WHERE typeof(value) = 'text'")
        let reporter = ProgressReporter(task: "Folding the list members of \(recordType)", total: members.count, handler: progress)
        for (index, member) in members.enumerated() {
            let text: String = member[1]
            var arguments = Self.foldedColumns.map { SQLiteValueConversion.databaseValue($0.value(of: text)) }
            arguments.append(member[0])
            try update.execute(arguments: StatementArguments(arguments))
            reporter.report(index + 1)
        }
    }
}
