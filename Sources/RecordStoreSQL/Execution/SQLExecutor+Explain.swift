import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

extension SQLExecutor {
    /// How a query runs, as `explain` prints it: the statements that ``records(_:on:)`` would
    /// run, each explained by the database through `explaining` (the engine's `EXPLAIN`).
    ///
    /// A query on one type shows its first statement. A query on a type with subtypes shows
    /// what runs for it: the one `UNION ALL` statement over every concrete type
    /// (``HierarchyUnion``), or, when the types cannot share one, each type's statement and
    /// that Swift merges them (``ExplainedQuery``).
    ///
    /// ```swift
    /// let plan = try await executor.explain(query, engine: "sqlite", on: connection) { statement in
    ///     try SQLiteQueryPlanExplanation(statement: statement, connection.db).explained
    /// }
    /// ```
    @_spi(StorageEngine) public func explain<Connection: SQLConnection>(
        _ specification: QuerySpecification, engine: String, on connection: Connection,
        explaining explained: (SQLStatement) async throws -> ExplainedStatement
    ) async throws -> QueryPlan {
        guard let context = try await queryContext(specification, on: connection) else {
            return ExplainedQuery.noRecords(engine: engine, query: specification)
        }
        guard let hierarchy = try HierarchyQuery(specification, catalog: context.catalog) else {
            return try await plan(of: prepare(specification, context: context, on: connection), engine: engine, explaining: explained)
        }
        var branches: [PreparedQuery] = []
        for branch in hierarchy.branches {
            branches.append(try await renaming(hierarchy) { try await prepare(branch, context: context, on: connection) })
        }
        if let union = HierarchyUnion(hierarchy, branches: branches, dialect: dialect) {
            let statement = try UnionExecution(union).firstStatement
            return ExplainedQuery.plan(engine: engine, union: union, statement: statement, explanation: try await explained(statement))
        }
        if branches.count == 1 { return try await plan(of: branches[0], engine: engine, explaining: explained) }
        var statements: [(prepared: PreparedQuery, statement: SQLStatement, explanation: ExplainedStatement)] = []
        for branch in branches {
            let statement = try ExplainedQuery.firstStatement(of: branch, dialect: dialect)
            statements.append((branch, statement, try await explained(statement)))
        }
        return ExplainedQuery.plan(engine: engine, merging: hierarchy, branches: statements)
    }

    /// The plan of a query on one type: its first statement, explained.
    private func plan(
        of prepared: PreparedQuery, engine: String, explaining explained: (SQLStatement) async throws -> ExplainedStatement
    ) async throws -> QueryPlan {
        let statement = try ExplainedQuery.firstStatement(of: prepared, dialect: dialect)
        return ExplainedQuery.plan(engine: engine, prepared: prepared, statement: statement, explanation: try await explained(statement))
    }
}
