import GRDB
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// A GRDB `Row` as the shared SQL code reads it.
struct SQLiteRow: SQLRow {
    let row: GRDB.Row

    func value(at index: Int) -> SQLValue {
        SQLiteValueConversion.value(row[index])
    }
}

/// A GRDB database connection, inside a read or write transaction the engine opened, as the
/// shared SQL code (``SQLExecutor``) uses it.
///
/// Its operations are synchronous, so the shared code, `async` for the sake of server engines,
/// never suspends on it: ``run(_:_:)`` runs that code inside GRDB's transaction, on its thread.
///
/// ```swift
/// try pool.read { db in try SQLiteConnection.run(db) { try await executor.count(specification, on: $0) } }
/// ```
struct SQLiteConnection: SQLConnection {
    let db: Database

    init(_ db: Database) {
        self.db = db
    }

    /// Runs the shared SQL code `body` on the connection of a transaction GRDB opened, on this
    /// thread, and returns what it returns.
    static func run<T>(_ db: Database, _ body: (SQLiteConnection) async throws -> T) throws -> T {
        let connection = SQLiteConnection(db)
        return try SynchronousCall.wait { try await body(connection) }
    }

    func execute(_ statement: SQLStatement) throws {
        try StoreTracing.statement(statement.sql, system: "sqlite") {
            try db.execute(sql: statement.sql, arguments: SQLiteValueConversion.statementArguments(statement.arguments))
        }
    }

    func forEachRow(_ statement: SQLStatement, _ body: (SQLiteRow) throws -> Bool) throws {
        try StoreTracing.statement(statement.sql, system: "sqlite") {
            // Prepared once per connection and text, within a budget: query texts vary with their
            // arguments (IN lists, keyset segments), so an unbounded cache would grow without end.
            let prepared = try StatementCacheBudget.shared.statement(statement.sql, in: db)
            let rows = try GRDB.Row.fetchCursor(prepared, arguments: SQLiteValueConversion.statementArguments(statement.arguments))
            while let row = try rows.next() {
                guard try body(SQLiteRow(row: row)) else { return }
            }
        }
    }

    func stoppingStatements<T>(at deadline: ContinuousClock.Instant, _ body: () async throws -> T) async throws -> T {
        try await SQLiteStatementDeadline(db, deadline: deadline).running(body)
    }

    /// SQLite refuses conditions nested too deeply ("parser stack overflow") or too large
    /// ("Expression tree is too large", "too many SQL variables").
    func canPrepare(_ statement: SQLStatement) throws -> Bool {
        do {
            _ = try db.makeStatement(sql: statement.sql)
            return true
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            let message = error.message ?? ""
            if message.contains("parser stack overflow") || message.contains("Expression tree is too large") || message.contains("too many SQL variables") {
                return false
            }
            throw error
        }
    }
}
