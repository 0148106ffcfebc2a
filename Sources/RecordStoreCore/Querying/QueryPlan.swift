/// How a query runs: the SQL with its placeholders and bound arguments, the residual
/// predicate the evaluator checks on the rows SQL returns, and the indexes SQLite uses.
///
/// Which is which: a `QueryPlan` is the printed explanation `explain` returns; the planner's
/// working plan is the package-internal `SQLPlan`, made by `SQLPlanner`.
///
/// ```swift
/// let plan = try store.explain(ofType: "City", matching: FormatPredicate(format: "population > 1000000"))
/// print(plan)
/// // engine: sqlite
/// // sql: SELECT ... FROM "City" AS t WHERE t."$zone" = ? AND (t."population" IS NOT NULL AND t."population" > ?) ...
/// // arguments: ["_defaultZone", 1000000]
/// // residual: none
/// // indexes: City$population$index
/// ```
public struct QueryPlan: Sendable, Hashable, CustomStringConvertible {
    /// The engine that runs the query: `memory` or `sqlite`.
    public var engine: String
    /// The SQL statement with `?` placeholders; empty for the memory engine. A query on a type
    /// with subtypes shows the one `UNION ALL` statement over every concrete type, or, when
    /// each type's statement runs on its own and Swift merges their records, those statements
    /// separated by `; ` (``queryPlanDetails`` then explains each under its type's name).
    public var sql: String
    /// The bound arguments, printed in order (of every statement ``sql`` holds).
    public var arguments: [String]
    /// The part of the predicate the evaluator checks on each row SQL returns, printed; nil when SQL does it all.
    public var residual: String?
    /// The indexes SQLite's `EXPLAIN QUERY PLAN` reports using.
    public var indexesUsed: [String]
    /// The lines of `EXPLAIN QUERY PLAN`.
    public var queryPlanDetails: [String]
    /// The rows the database expects each line of ``queryPlanDetails`` to visit: SQLite's from
    /// the `ANALYZE` statistics (a scan, an index search), PostgreSQL's `rows=`, the memory
    /// engine's count of the records it scans; nil where the line has no estimate (a sort step).
    public var estimatedRows: [Int?]

    /// Creates a plan description.
    ///
    /// ```swift
    /// let plan = QueryPlan(engine: "sqlite", sql: "SELECT …", arguments: [], residual: nil, indexesUsed: [],
    ///                      queryPlanDetails: ["SCAN t"], estimatedRows: [2000])
    /// ```
    public init(
        engine: String, sql: String, arguments: [String], residual: String?, indexesUsed: [String], queryPlanDetails: [String],
        estimatedRows: [Int?] = []
    ) {
        self.engine = engine
        self.sql = sql
        self.arguments = arguments
        self.residual = residual
        self.indexesUsed = indexesUsed
        self.queryPlanDetails = queryPlanDetails
        self.estimatedRows = estimatedRows
    }

    public var description: String {
        var lines = ["engine: \(engine)"]
        if !sql.isEmpty { lines.append("sql: \(sql)") }
        if !arguments.isEmpty { lines.append("arguments: [\(arguments.joined(separator: ", "))]") }
        lines.append("residual: \(residual ?? "none")")
        lines.append("indexes: \(indexesUsed.isEmpty ? "none" : indexesUsed.joined(separator: ", "))")
        if !queryPlanDetails.isEmpty {
            lines.append("query plan:")
            for (index, detail) in queryPlanDetails.enumerated() {
                // PostgreSQL prints its own estimates in the line.
                if index < estimatedRows.count, let rows = estimatedRows[index], !detail.contains(" rows=") {
                    lines.append("  \(detail)  (~\(rows) row\(rows == 1 ? "" : "s"))")
                } else {
                    lines.append("  \(detail)")
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}
