import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// The parts of a SQL engine's ``QueryPlan`` every SQL engine builds alike: the plan of a type
/// with no table yet, and the plan of a prepared query once the database explained its first
/// statement (its details and the indexes it uses).
///
/// ```swift
/// guard let prepared = try executor.prepare(query, on: connection) else { return ExplainedQuery.noRecords(engine: name, query: query) }
/// let statement = try ExplainedQuery.firstStatement(of: prepared, dialect: executor.dialect)
/// return ExplainedQuery.plan(engine: name, prepared: prepared, statement: statement, details: lines, indexes: names)
/// ```
@_spi(StorageEngine) public enum ExplainedQuery {
    /// The plan of a query on a record type that has no records (nor a table) yet.
    @_spi(StorageEngine) public static func noRecords(engine: String, query: QuerySpecification) -> QueryPlan {
        QueryPlan(engine: engine, sql: "", arguments: [], residual: nil, indexesUsed: [],
                  queryPlanDetails: ["record type '\(query.recordType)' has no records: the result is empty"])
    }

    /// The statement an engine explains: the first one the query runs.
    @_spi(StorageEngine) public static func firstStatement(of prepared: PreparedQuery, dialect: any SQLDialect) throws(RecordStoreError) -> SQLStatement {
        try SelectExecution(prepared, dialect: dialect).firstStatement
    }

    /// The plan of a prepared query: its statement, residual, and the database's own explanation.
    /// `estimatedRows` holds the rows each line of `details` is expected to visit (nil where unknown).
    @_spi(StorageEngine) public static func plan(
        engine: String, prepared: PreparedQuery, statement: SQLStatement, details: [String], indexes: [String], estimatedRows: [Int?]
    ) -> QueryPlan {
        var details = details
        var estimatedRows = estimatedRows
        if !prepared.plan.ordersInSQL {
            details.append("sorted in Swift: SQL has no collation for \(prepared.specification.sorts.map(\.description).joined(separator: ", "))")
            estimatedRows.append(nil)
        }
        return QueryPlan(
            engine: engine, sql: statement.sql, arguments: statement.arguments.map(\.description),
            residual: prepared.plan.residual?.predicateFormat, indexesUsed: indexes, queryPlanDetails: details, estimatedRows: estimatedRows)
    }
}
