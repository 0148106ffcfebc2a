import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// What ``SQLPlanner`` makes of one query: the parts of a `SELECT` (with `?` markers), the
/// arguments in marker order, the keyset segments, and the residual predicate the evaluator
/// checks on the rows SQL returns.
///
/// Not to be confused with ``QueryPlan``, the printed explanation `explain` returns (which
/// this plan is turned into), nor with ``SQLPlanner``, which makes it.
///
/// ```swift
/// let plan = try SQLPlanner(dialect: dialect, schema: schema, recordType: "City").plan(specification)
/// plan.whereClause     // t."$zone" = ? AND (t."population" IS NOT NULL AND t."population" > ?)
/// plan.orderBy         // t."population" DESC, t."$recordName" ASC
/// ```
@_spi(StorageEngine) public struct SQLPlan: Sendable {
    /// `WHERE` condition (without the keyword), never empty.
    @_spi(StorageEngine) public var whereClause: String
    /// The arguments of the `WHERE` clause.
    @_spi(StorageEngine) public var whereArguments: [SQLValue]
    /// `ORDER BY` terms (without the keywords); nil when SQL cannot order as the query asks (a
    /// collation the database lacks): the executor then sorts the matches in Swift.
    @_spi(StorageEngine) public var orderBy: String?
    /// The arguments of the `ORDER BY` terms.
    @_spi(StorageEngine) public var orderArguments: [SQLValue]
    /// The part of the predicate the evaluator checks on each row; nil when SQL is exact.
    @_spi(StorageEngine) public var residual: FormatPredicate?
    /// Keyset paging: conditions added to the `WHERE` clause one after the other, each run in
    /// order until the page is full (empty: no keyset in SQL, one statement).
    @_spi(StorageEngine) public var keysetSegments: [SQLCondition] = []

    /// Whether SQL returns the rows in the query's order.
    @_spi(StorageEngine) public var ordersInSQL: Bool { orderBy != nil }
}
