import Foundation
import GRDB
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Keeps the ``DerivedColumn``s of a record type's table in step with its schema: the columns
/// a field's flags ask for exist, are filled from the field, and have their index.
///
/// The writer fills them for every record it writes; this fills them for the rows already
/// there, when a field gains a column (a new flag, or a database from before derived columns)
/// or when ICU's collation version changes (sort keys are then computed again).
///
/// ```swift
/// try SQLiteDerivedColumns(db: db).ensure(schema)
/// ```
struct SQLiteDerivedColumns {
    let db: Database
    /// Hears how filling the columns of existing rows goes.
    var progress: StoreOpeningProgressHandler?

    /// The metadata entry that records the collation version the stored sort keys were made with.
    static let collationVersionName = "collationVersion"

    private func quote(_ name: String) -> String { SQLiteDialect.quote(name) }

    /// Adds the derived columns the schema asks for that the table lacks, fills them from the
    /// rows, and creates their indexes (unless `indexes` is false: a bulk load builds them last).
    func ensure(_ schema: RecordTypeSchema, indexes: Bool = true) throws {
        let table = TableLayout.recordTable(schema.name)
        guard try db.tableExists(table) else { return }
        let existing = Set(try db.columns(in: table).map(\.name))
        for field in schema.fields {
            let missing = DerivedColumn.columns(for: field).filter { !existing.contains(TableLayout.derivedColumn(field.name, $0)) }
            guard !missing.isEmpty else { continue }
            for derived in missing {
                try db.execute(sql: "ALTER TABLE \(quote(table)) ADD COLUMN \(quote(TableLayout.derivedColumn(field.name, derived)))")
            }
            try fill(missing, of: field.name, in: table)
        }
        if indexes { try createIndexes(schema) }
    }

    /// Creates the index of every derived column the schema asks for.
    func createIndexes(_ schema: RecordTypeSchema) throws {
        let table = quote(TableLayout.recordTable(schema.name))
        for field in schema.fields {
            for derived in DerivedColumn.columns(for: field) {
                try db.execute(sql: """
                    CREATE INDEX IF NOT EXISTS \(quote(TableLayout.derivedIndex(schema.name, field: field.name, derived)))
                    ON \(table) (\(quote(TableLayout.zoneColumn)), \(quote(TableLayout.derivedColumn(field.name, derived))), \(quote(TableLayout.recordNameColumn)))
                    """)
            }
        }
    }

    /// Computes the sort-key columns of every type again when the stored keys were made by
    /// another version of ICU's collation (a toolchain upgrade), and records the version.
    func refreshSortKeys(_ catalog: SchemaCatalog) throws {
        let current = UnicodeCollation.version
        let metadata = SQLiteStoreMetadata(db: db)
        let stored = try metadata.value(named: Self.collationVersionName, as: String.self)
        guard stored != current else { return }
        if stored != nil {
            for schema in catalog.sorted {
                guard try db.tableExists(TableLayout.recordTable(schema.name)) else { continue }
                for field in schema.fields {
                    let keys = DerivedColumn.columns(for: field).filter(\.isSortKey)
                    if !keys.isEmpty { try fill(keys, of: field.name, in: TableLayout.recordTable(schema.name)) }
                }
            }
        }
        try metadata.setValue(current, named: Self.collationVersionName)
    }

    /// Computes a field's derived columns for every row that has a string in it.
    private func fill(_ columns: [DerivedColumn], of field: String, in table: String) throws {
        try fill(columns, from: field, in: table, task: "Computing \(columns.map(\.rawValue).joined(separator: ", ")) of \(table).\(field)") {
            TableLayout.derivedColumn(field, $0)
        }
    }

    /// Computes derived columns (named by `column`) from the string in `source`, for every row
    /// of `table` that has one, reporting progress under `task`.
    func fill(
        _ columns: [DerivedColumn], from source: String, in table: String, task: String, column: (DerivedColumn) -> String
    ) throws {
        let assignments = columns.map { "\(quote(column($0))) = ?" }.joined(separator: ", ")
        let update = try db.makeStatement(sql: "UPDATE \(quote(table)) SET \(assignments) WHERE rowid = ?")
        let rows = try Row.fetchCursor(
            db, sql: "SELECT rowid, \(quote(source)) FROM \(quote(table)) WHERE typeof(\(quote(source))) = 'text'")
        var pending: [(Int64, String)] = []
        while let row = try rows.next() {
            pending.append((row[0], row[1]))
        }
        let reporter = ProgressReporter(task: task, total: pending.count, handler: progress)
        for (index, (rowID, text)) in pending.enumerated() {
            var arguments = columns.map { SQLiteValueConversion.databaseValue($0.value(of: text)) }
            arguments.append(rowID.databaseValue)
            try update.execute(arguments: StatementArguments(arguments))
            reporter.report(index + 1)
        }
    }
}
