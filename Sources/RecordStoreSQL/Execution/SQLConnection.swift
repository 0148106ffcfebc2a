@_spi(StorageEngine) import RecordStoreCore
/// One row a statement returned: column values by position.
@_spi(StorageEngine) public protocol SQLRow {
    /// The value of the column at a position (0-based) of the statement's selection.
    func value(at index: Int) -> SQLValue
}

/// What the shared SQL code (``SQLExecutor``) needs of a database connection: run a statement,
/// iterate rows. The engine opens the transaction (a read snapshot or a write) and hands the
/// connection inside it.
///
/// Each operation is `async`, so that a server's connection awaits its database without holding
/// a cooperative thread. A connection whose database answers synchronously (SQLite through
/// GRDB) implements them as synchronous functions: the executor then never suspends, and the
/// engine runs it inside GRDB's transaction with ``SynchronousCall``.
///
/// ```swift
/// try pool.read { db in
///     try SynchronousCall.wait { try await executor.count(specification, on: SQLiteConnection(db)) }
/// }
/// ```
@_spi(StorageEngine) public protocol SQLConnection {
    /// The rows the connection's queries return.
    associatedtype Row: SQLRow
    /// Runs a statement that returns no rows.
    func execute(_ statement: SQLStatement) async throws
    /// Runs a query and calls `body` with each row until it returns false or the rows run out.
    func forEachRow(_ statement: SQLStatement, _ body: (Row) throws -> Bool) async throws
    /// Whether the database can prepare a statement (its parser may refuse very deep or
    /// very large expressions); such statements are replaced by a scan with a residual.
    func canPrepare(_ statement: SQLStatement) async throws -> Bool
    /// Runs `body`, the database itself stopping a statement of it still running once
    /// `deadline` passes: work inside SQL (a `MATCHES` the database calls back into Swift for,
    /// a scan) that no evaluation budget sees. A stopped statement throws
    /// `RecordStoreError.queryTooExpensive(.deadline)`. A connection that cannot stop its
    /// statements runs `body` as it is (the default).
    func stoppingStatements<T>(at deadline: ContinuousClock.Instant, _ body: () async throws -> T) async throws -> T
}

extension SQLConnection {
    /// Runs `body` as it is: a connection that cannot stop its statements leaves the deadline to
    /// the evaluation budget.
    @_spi(StorageEngine) public func stoppingStatements<T>(at deadline: ContinuousClock.Instant, _ body: () async throws -> T) async throws -> T {
        try await body()
    }

    /// Runs `body` under a query's deadline, when its cost limits set one (see
    /// ``stoppingStatements(at:_:)``).
    @_spi(StorageEngine) public func stoppingStatements<T>(of prepared: PreparedQuery, _ body: () async throws -> T) async throws -> T {
        guard let deadline = prepared.specification.costLimits.deadline else { return try await body() }
        return try await stoppingStatements(at: deadline, body)
    }

    /// The first row of a query, read by `read`; nil when there is none.
    @_spi(StorageEngine) public func firstRow<T>(_ statement: SQLStatement, _ read: (Row) throws -> T) async throws -> T? {
        var result: T?
        try await forEachRow(statement) { row in
            result = try read(row)
            return false
        }
        return result
    }
}
