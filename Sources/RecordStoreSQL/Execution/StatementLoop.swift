@_spi(StorageEngine) import RecordStoreCore

/// A query's reading as a state machine of statements: ``SelectExecution`` for one record type,
/// ``UnionExecution`` for a hierarchy in one statement. The executor runs both the same way
/// (``SQLExecutor/run(_:deadlineOf:on:)``).
protocol StatementLoop {
    /// The next statement to run, or nil when the page is complete.
    mutating func nextStatement() -> SQLStatement?
    /// Takes one row of the current statement; returns whether more rows are wanted.
    mutating func accept(_ row: some SQLRow) throws -> Bool
    /// Adds the rows read to the query's tally, if it has one.
    func tally()
}

extension SelectExecution: StatementLoop {}
extension UnionExecution: StatementLoop {}

extension SQLExecutor {
    /// Runs a loop's statements one after the other, each row to it, under the query's deadline,
    /// then adds what it read to the query's tally.
    ///
    /// ```swift
    /// var execution = try SelectExecution(prepared, dialect: dialect)
    /// try await run(&execution, deadlineOf: prepared, on: connection)
    /// ```
    func run<Loop: StatementLoop, Connection: SQLConnection>(
        _ loop: inout Loop, deadlineOf query: PreparedQuery, on connection: Connection
    ) async throws {
        try await connection.stoppingStatements(of: query) {
            while let statement = loop.nextStatement() {
                try await connection.forEachRow(statement) { row in try loop.accept(row) }
            }
        }
        loop.tally()
    }
}
