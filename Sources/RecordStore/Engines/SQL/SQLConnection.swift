/// One row a statement returned: column values by position.
package protocol SQLRow {
    /// The value of the column at a position (0-based) of the statement's selection.
    func value(at index: Int) -> SQLValue
}

/// What the shared SQL code (``SQLExecutor``) needs of a database connection that answers
/// synchronously (SQLite through GRDB): run a statement, iterate rows. The engine opens the
/// transaction (a read snapshot or a write) and hands the connection inside it.
///
/// ```swift
/// try pool.read { db in try executor.records(specification, on: SQLiteConnection(db: db, dialect: dialect)) }
/// ```
package protocol SQLConnection {
    associatedtype Row: SQLRow
    /// Runs a statement that returns no rows.
    func execute(_ statement: SQLStatement) throws
    /// Runs a query and calls `body` with each row until it returns false or the rows run out.
    func forEachRow(_ statement: SQLStatement, _ body: (Row) throws -> Bool) throws
    /// Whether the database can prepare a statement (its parser may refuse very deep or
    /// very large expressions); such statements are replaced by a scan with a residual.
    func canPrepare(_ statement: SQLStatement) throws -> Bool
}

/// ``SQLConnection`` for a database reached asynchronously (a server): the same operations,
/// each `async`, so that no cooperative thread waits on I/O.
package protocol AsyncSQLConnection {
    associatedtype Row: SQLRow
    /// Runs a statement that returns no rows.
    func execute(_ statement: SQLStatement) async throws
    /// Runs a query and calls `body` with each row until it returns false or the rows run out.
    func forEachRow(_ statement: SQLStatement, _ body: (Row) throws -> Bool) async throws
    /// Whether the database can prepare a statement.
    func canPrepare(_ statement: SQLStatement) async throws -> Bool
}

extension SQLConnection {
    /// The first row of a query, read by `read`; nil when there is none.
    package func firstRow<T>(_ statement: SQLStatement, _ read: (Row) throws -> T) throws -> T? {
        var result: T?
        try forEachRow(statement) { row in
            result = try read(row)
            return false
        }
        return result
    }
}

extension AsyncSQLConnection {
    /// The first row of a query, read by `read`; nil when there is none.
    package func firstRow<T>(_ statement: SQLStatement, _ read: (Row) throws -> T) async throws -> T? {
        var result: T?
        try await forEachRow(statement) { row in
            result = try read(row)
            return false
        }
        return result
    }
}
