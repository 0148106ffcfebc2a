import Foundation
import GRDB
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// A batch update on SQLite as a few statements over the matching rows (``SetBasedUpdate``),
/// in the write transaction, so that nothing else writes between finding the rows and changing
/// them:
/// 1. the query's `rowid`s go into a temporary table (the query planned as a fetch is, with no
///    residual: SQL must decide every match);
/// 2. their record names are read, in code-point order (the result, and the history's entries);
/// 3. one `UPDATE` of the rows, in `rowid` order: the fields' columns (with their spelling and
///    derived columns), the modification date, the last modifier, and a change tag of each
///    row's own (`query_next_change_tag`, ``SQLiteFunctions``);
/// 4. when a searchable field changes, the rows' full-text documents, rebuilt in SQL from their
///    searchable strings (`query_full_text_document`);
/// 5. the change history and the change log, as any save records them
///    (``SQLExecutor/recordHistory(_:at:date:on:)``, ``SQLiteChangeLog``);
/// 6. when an observer of this handle wants the commit (`wantsRecords`), the updated records,
///    read in the transaction, for its live results (a save has them at hand).
///
/// Reading the rows in `rowid` order visits each page of the table once; a save of the same
/// records, in the order the query found them, visits them at random.
///
/// ```swift
/// var transaction = SQLiteWriteTransaction(db: db, executor: executor)
/// let outcome = try await SQLiteBatchUpdate.run(request, in: &transaction)   // nil: the store saves the records instead
/// ```
enum SQLiteBatchUpdate {
    /// The records updated and the commit's description (for the engine's change feed).
    struct Outcome: Sendable {
        var recordNames: [String]
        var changes: CommittedChanges
    }

    /// The temporary table of the rows being updated (on the writer's connection; emptied
    /// before the transaction ends).
    static let rowsTable = #"temp."$batchUpdateRows""#

    /// Runs the update in `transaction`, or returns nil, having changed nothing, when it must
    /// take the general way (``SetBasedUpdate``'s cases, a query that SQL does not decide alone,
    /// a type without a table).
    static func run(
        _ request: SetBasedUpdate.Request, in transaction: inout SQLiteWriteTransaction, wantsRecords: (CommittedChanges) -> Bool
    ) async throws -> Outcome? {
        let db = transaction.db
        let executor = transaction.executor
        let connection = SQLiteConnection(db)
        func run(_ sql: String, _ arguments: [SQLValue] = []) throws {
            try connection.execute(SQLStatement(sql, arguments, dialect: executor.dialect))
        }
        guard let update = SetBasedUpdate(request, catalog: try await transaction.readCatalog()) else { return nil }
        let prepared: PreparedQuery
        do {
            guard let query = try await executor.prepare(request.query, on: connection) else { return nil }
            prepared = query
        } catch is RecordStoreError {
            // The query's own error (an unknown field, a refused comparison): the store's general
            // way reports it as a fetch does. Any other error is the storage's, reported here.
            return nil
        }
        guard prepared.plan.residual == nil else { return nil }

        let table = SQLiteDialect.quote(TableLayout.recordTable(update.schema.name))
        try run("CREATE TEMP TABLE IF NOT EXISTS \(rowsTable) (row INTEGER PRIMARY KEY)")
        let (from, arguments) = prepared.fromClause(dialect: executor.dialect)
        try run("INSERT INTO \(rowsTable) (row) SELECT t.rowid " + from, arguments)
        let recordName = SQLiteDialect.quote(TableLayout.recordNameColumn)
        var names: [String] = []
        try connection.forEachRow(SQLStatement(
            "SELECT \(recordName) FROM \(table) WHERE rowid IN (SELECT row FROM \(rowsTable)) ORDER BY \(recordName)", [], dialect: executor.dialect)
        ) { row in
            if case .text(let name) = row.value(at: 0) { names.append(name) }
            return true
        }
        guard !names.isEmpty else {
            try run("DELETE FROM \(rowsTable)")
            return Outcome(recordNames: [], changes: CommittedChanges(sequence: 0))
        }
        let position = try await transaction.nextChangePosition()

        let layout = SQLiteRowLayout(update.schema)
        let positions = layout.fields.indices.filter { update.changedFields.contains(layout.fields[$0].schema.name) }
        let rows = SQLiteRowLayout.PartialUpdateRows.listed(inTable: rowsTable)
        let updateSQL = layout.partialUpdateSQL(fields: positions, rows: rows)
        try StoreTracing.statement(updateSQL, system: "sqlite") {
            var statement = SQLiteStatementBinder(
                try db.makeStatement(sql: updateSQL), parameterCount: 2 + positions.reduce(0) { $0 + layout.columnCount(of: $1) })
            try layout.bindPartialUpdate(of: update.values, fields: positions, rows: rows, to: &statement)
            try statement.execute()
        }
        if positions.contains(where: { layout.fields[$0].isSearchable }) {
            try rebuildFullText(of: update.schema, dialect: executor.dialect, run)
        }

        var changes = update.committedChanges(updating: names)
        try await transaction.recordHistory(changes, at: position, date: Date())
        changes.sequence = try transaction.logCommit(changes)
        try run("DELETE FROM \(rowsTable)")
        if wantsRecords(changes) {
            changes.savedRecords = try await transaction.storedRecords(changes.entries.map(\.recordID))
        }
        return Outcome(recordNames: names, changes: changes)
    }

    /// Replaces the full-text documents of the listed rows by those of their searchable strings
    /// now (as the writer's ``SQLiteRowLayout/fullTextDocument(of:)`` builds them from a record:
    /// the client's spelling of each string field, in field order).
    private static func rebuildFullText(of schema: RecordTypeSchema, dialect: any SQLDialect, _ run: (String, [SQLValue]) throws -> Void) throws {
        let fullText = SQLiteDialect.quote(SQLiteLayout.fullTextTable(schema.name))
        let table = SQLiteDialect.quote(TableLayout.recordTable(schema.name))
        try run("DELETE FROM \(fullText) WHERE rowid IN (SELECT row FROM \(rowsTable))", [])
        let strings = schema.fields.filter { $0.isSearchable && $0.type == .string }
            .map { StoredSpelling.readExpression(field: $0, alias: "t", dialect: dialect) }
        guard !strings.isEmpty else { return }
        try run("""
            INSERT INTO \(fullText) (rowid, body) SELECT row, body FROM (
                SELECT t.rowid AS row, query_full_text_document(\(strings.joined(separator: ", "))) AS body
                FROM \(table) AS t WHERE t.rowid IN (SELECT row FROM \(rowsTable)) ORDER BY t.rowid
            ) WHERE body IS NOT NULL
            """, [])
    }
}
