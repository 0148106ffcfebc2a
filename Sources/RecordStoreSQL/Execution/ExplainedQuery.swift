import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// The ``QueryPlan`` every SQL engine builds alike from the statements a query runs and the
/// database's explanation of each (``ExplainedStatement``): the plan of a type with no table
/// yet, of a query on one type (its first statement), of a query over a hierarchy in one
/// `UNION ALL` statement (``HierarchyUnion``), and of one whose types' statements are merged
/// in Swift. ``SQLExecutor/explain(_:engine:on:explaining:)`` decides which.
///
/// ```swift
/// let statement = try ExplainedQuery.firstStatement(of: prepared, dialect: executor.dialect)
/// return ExplainedQuery.plan(engine: name, prepared: prepared, statement: statement, explanation: explained)
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
    @_spi(StorageEngine) public static func plan(
        engine: String, prepared: PreparedQuery, statement: SQLStatement, explanation: ExplainedStatement
    ) -> QueryPlan {
        var details = explanation.details
        var estimatedRows = aligned(explanation)
        if !prepared.plan.ordersInSQL {
            details.append("sorted in Swift: SQL has no collation for \(prepared.specification.sorts.map(\.description).joined(separator: ", "))")
            estimatedRows.append(nil)
        }
        return QueryPlan(
            engine: engine, sql: statement.sql, arguments: statement.arguments.map(\.description),
            residual: prepared.plan.residual?.predicateFormat, indexesUsed: explanation.indexes, queryPlanDetails: details,
            estimatedRows: estimatedRows)
    }

    /// The plan of a query over a hierarchy that runs as one `UNION ALL` statement: the
    /// statement, its arguments, the database's explanation of it after a line naming the
    /// types it reads, and each branch's residual.
    ///
    /// ```
    /// query plan:
    ///   one statement for Person and its subtypes: UNION ALL of Employee, Manager, Contractor, merged in order by the database
    ///   MERGE (UNION ALL)
    ///   …
    /// ```
    @_spi(StorageEngine) public static func plan(
        engine: String, union: HierarchyUnion, statement: SQLStatement, explanation: ExplainedStatement
    ) -> QueryPlan {
        let types = union.branches.map(\.specification.recordType).joined(separator: ", ")
        let heading = "one statement for \(union.specification.recordType) and its subtypes: UNION ALL of \(types), merged in order by the database"
        return QueryPlan(
            engine: engine, sql: statement.sql, arguments: statement.arguments.map(\.description),
            residual: residual(of: union.branches), indexesUsed: explanation.indexes,
            queryPlanDetails: [heading] + explanation.details, estimatedRows: [nil] + aligned(explanation))
    }

    /// The plan of a query over a hierarchy whose types cannot share one statement (SQL orders
    /// them differently, or not at all): one statement per type, each explained under its
    /// type's name, whose records Swift merges in the query's order. The SQL is the statements
    /// in the order they run, separated by `; `, and the arguments theirs in that order.
    ///
    /// ```
    /// query plan:
    ///   3 statements, one per record type, merged in Swift: the types order by different expressions
    ///   Employee:
    ///     SCAN t USING INDEX Employee$salary$index
    ///   …
    ///   then merged in Swift in the query's order
    /// ```
    @_spi(StorageEngine) public static func plan(
        engine: String, merging hierarchy: HierarchyQuery, branches: [(prepared: PreparedQuery, statement: SQLStatement, explanation: ExplainedStatement)]
    ) -> QueryPlan {
        let unordered = branches.filter { !$0.prepared.plan.ordersInSQL }.map(\.prepared.specification.recordType)
        let reason = unordered.isEmpty
            ? "the types order by different expressions"
            : "SQL does not order \(unordered.joined(separator: ", ")) as asked"
        var details = ["\(branches.count) statements, one per record type, merged in Swift: \(reason)"]
        var estimatedRows: [Int?] = [nil]
        var indexes: [String] = []
        for branch in branches {
            let plan = plan(engine: engine, prepared: branch.prepared, statement: branch.statement, explanation: branch.explanation)
            details.append("\(branch.prepared.specification.recordType):")
            estimatedRows.append(nil)
            details += plan.queryPlanDetails.map { "  " + $0 }
            estimatedRows += plan.estimatedRows
            for index in plan.indexesUsed where !indexes.contains(index) { indexes.append(index) }
        }
        var paging: [String] = []
        if hierarchy.specification.offset > 0 { paging.append("skips \(hierarchy.specification.offset)") }
        if let limit = hierarchy.specification.limit { paging.append("keeps at most \(limit)") }
        details.append("then merged in Swift in the query's order" + (paging.isEmpty ? "" : ": the merge " + paging.joined(separator: " and ")))
        estimatedRows.append(nil)
        return QueryPlan(
            engine: engine, sql: branches.map(\.statement.sql).joined(separator: "; "),
            arguments: branches.flatMap { $0.statement.arguments.map(\.description) },
            residual: residual(of: branches.map(\.prepared)), indexesUsed: indexes, queryPlanDetails: details, estimatedRows: estimatedRows)
    }

    /// The residual of a hierarchy's branches: theirs when they share it (or none), else each
    /// type's (`Employee: none; Manager: level > age`): `entity.name` is each branch's own type.
    private static func residual(of branches: [PreparedQuery]) -> String? {
        let residuals = branches.map { $0.plan.residual?.predicateFormat }
        guard let first = residuals.first, residuals.contains(where: { $0 != first }) else { return residuals.first ?? nil }
        return zip(branches, residuals).map { branch, residual in "\(branch.specification.recordType): \(residual ?? "none")" }.joined(separator: "; ")
    }

    /// The explanation's row estimates, one per line (nil for lines it gives none).
    private static func aligned(_ explanation: ExplainedStatement) -> [Int?] {
        var rows = Array(explanation.estimatedRows.prefix(explanation.details.count))
        rows += Array(repeating: nil, count: explanation.details.count - rows.count)
        return rows
    }
}
