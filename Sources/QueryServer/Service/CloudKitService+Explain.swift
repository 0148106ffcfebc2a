// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

extension CloudKitService {
    /// This server's extension `records/explain`: how `records/query` would run the first batch
    /// of a query, without running it.
    ///
    /// Takes the body of `records/query` (`zoneID`, `resultsLimit`, and `query` with
    /// `recordType`, `filterBy`, `sortBy`, `predicate`, `arguments`; a `continuationMarker` is
    /// not read). Answers `plan` (the text `query find --explain` prints), `engine`, `sql`,
    /// `arguments`, `residual` (the part of the predicate checked on each row, or null),
    /// `indexesUsed`, `queryPlanDetails` (the lines of SQLite's `EXPLAIN QUERY PLAN` or
    /// PostgreSQL's `EXPLAIN`) and `estimatedRows` (the rows the database expects each of those
    /// lines to visit, null where it has no estimate).
    ///
    /// ```swift
    /// let answer = try await service.explain(
    ///     .object(["query": .object(["recordType": .string("City"), "predicate": .string("population > 1000000")])]),
    ///     in: Namespace(environment: .production, database: .public))
    /// answer["indexesUsed"]   // ["City$population$index"]
    /// ```
    public func explain(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        try await explain(body, in: namespace, principal: nil)
    }

    /// ``explain(_:in:)`` for a principal: the plan of the query it would run (a type it may not
    /// read is `ACCESS_DENIED`, as `records/query` answers it). In a shared database, the plan of
    /// the query run in the owner's zone, whose records the user's shares then filter.
    func explain(_ body: JSONValue, in namespace: Namespace, principal: RequestPrincipal?) async throws(ServerError) -> JSONValue {
        let request = try RequestBodyDecoder.decode(RecordsExplainRequest.self, from: body)
        if namespace.sharedDatabaseUser != nil {
            let shared = try await sharedZone(request.zoneID, in: namespace)
            return try await explain(body, in: shared.ownerNamespace, principal: nil)
        }
        let zone = try await zone(request.zoneID, in: namespace)
        let limit = request.resultsLimit
        let store = try await self.store(for: namespace)
        let check = try await securityCheck(for: principal ?? .owner(of: namespace.database), in: store)
        let query = try await recordQuery(request.query, in: namespace, check: check)
        // records/query reads one record more than it answers, to know whether more remain.
        let plan = try await run { () async throws(RecordStoreError) in
            try await store.explain(ofType: query.recordType, matching: query.predicate, sorts: query.sorts, zone: zone, limit: limit + 1)
        }
        return .object([
            "plan": .string(plan.description),
            "engine": .string(plan.engine),
            "sql": .string(plan.sql),
            "arguments": .array(plan.arguments.map(JSONValue.string)),
            "residual": plan.residual.map(JSONValue.string) ?? .null,
            "indexesUsed": .array(plan.indexesUsed.map(JSONValue.string)),
            "queryPlanDetails": .array(plan.queryPlanDetails.map(JSONValue.string)),
            "estimatedRows": .array(plan.queryPlanDetails.indices.map { index in
                index < plan.estimatedRows.count ? plan.estimatedRows[index].map { .integer(Int64($0)) } ?? .null : .null
            }),
        ])
    }
}
#endif
