import Foundation
import GRDB
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// The list table of a record type (``TableLayout/listTable(_:)``): one row per member of its
/// queryable list fields, `(record, field, position, value)`, with the folded forms of string members in `value$c`
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

    /// Writes the members of one record's list field (the field must be queryable).
    func insert(_ members: [Value], of field: String, record rowID: Int64, _ db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO \(table) (record, field, position, value, \(Self.foldedColumnNames))
            VALUES (?, ?, ?, ?\(String(repeating: ", ?", count: DerivedColumn.memberForms.count)))
            """)
        for (position, member) in members.enumerated() {
            var row = SQLiteStatementBinder(statement, parameterCount: 4 + DerivedColumn.memberForms.count)
            try row.bind(rowID)
            try row.bind(field)
            try row.bind(position)
            try row.bind(StoredValueEncoding.encode(member))
            for form in DerivedColumn.memberForms {
                try row.bind(form.value(of: member))
            }
            try row.execute()
        }
    }

    /// Writes the members of a list field that becomes queryable, for every row, from the lists
    /// the rows hold as typed JSON.
    func fill(_ field: FieldSchema, _ db: Database, progress: StoreOpeningProgressHandler?) throws {
        guard let elementType = field.type.elementType else { return }
        let recordTable = SQLiteDialect.quote(TableLayout.recordTable(recordType))
        let column = SQLiteDialect.quote(field.name)
        let rows = try Row.fetchAll(db, sql: "SELECT rowid, \(column) FROM \(recordTable) WHERE typeof(\(column)) = 'text'")
        let reporter = ProgressReporter(task: "Indexing the members of \(recordType).\(field.name)", total: rows.count, handler: progress)
        for (index, row) in rows.enumerated() {
            let json: String = row[1]
            guard case .list(let members)? = try? Value(jsonText: json) else {
                throw RecordStoreError.storage("a row of '\(recordType)' holds no JSON list in its field '\(field.name)'")
            }
            try insert(members.map { RecordRowReader.member($0, as: elementType) }, of: field.name, record: row[0], db)
            reporter.report(index + 1)
        }
    }

    /// Removes the members of a list field that is no longer queryable.
    func removeMembers(of field: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM \(table) WHERE field = ?", arguments: [field])
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
