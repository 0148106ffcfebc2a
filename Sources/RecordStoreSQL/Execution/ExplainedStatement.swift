/// The database's own explanation of one statement (SQLite's `EXPLAIN QUERY PLAN`,
/// PostgreSQL's `EXPLAIN`): its lines, the indexes they name, and the rows each line is
/// expected to visit. An engine makes one per statement ``SQLExecutor/explain(_:engine:on:explaining:)``
/// asks it to explain; ``ExplainedQuery`` puts them into a ``QueryPlan``.
///
/// ```swift
/// ExplainedStatement(details: ["SEARCH t USING INDEX City$population$index ($zone=? AND population>?)"],
///                    indexes: ["City$population$index"], estimatedRows: [nil])
/// ```
@_spi(StorageEngine) public struct ExplainedStatement: Sendable, Hashable {
    /// The lines of the database's plan, as it printed them.
    @_spi(StorageEngine) public var details: [String]
    /// The indexes the plan uses, in order of first mention.
    @_spi(StorageEngine) public var indexes: [String]
    /// The rows each line of ``details`` is expected to visit; nil where the database gives no estimate.
    @_spi(StorageEngine) public var estimatedRows: [Int?]

    /// An explanation.
    @_spi(StorageEngine) public init(details: [String], indexes: [String], estimatedRows: [Int?]) {
        self.details = details
        self.indexes = indexes
        self.estimatedRows = estimatedRows
    }
}
