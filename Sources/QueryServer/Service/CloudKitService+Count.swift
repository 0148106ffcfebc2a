// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

extension CloudKitService {
    /// This server's extension `records/count`: how many records a query selects in the zone it
    /// names, `{"count": N}`. It takes the body of `records/query` (`query`, `zoneID`; a
    /// `continuationMarker` and `resultsLimit` are not read) and counts what `records/query` would
    /// page through: a record the caller may not read is not counted. The console shows it as each
    /// type's count and each query's total. A shared database is not counted (its zones are other
    /// users', shared a record at a time).
    ///
    /// ```swift
    /// let answer = try await service.count(["query": ["recordType": "City", "predicate": "population > 100000"]],
    ///                                      in: Namespace(environment: .production, database: .public))
    /// answer["count"]   // 1052
    /// ```
    public func count(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        try await count(body, in: namespace, principal: nil)
    }

    /// ``count(_:in:)`` for a principal: a type it may not read is `ACCESS_DENIED`, as
    /// `records/query` answers it, and only the records it may read are counted.
    func count(_ body: JSONValue, in namespace: Namespace, principal: RequestPrincipal?) async throws(ServerError) -> JSONValue {
        let request = try RequestBodyDecoder.decode(RecordsExplainRequest.self, from: body)
        let zone = try await zone(request.zoneID, in: namespace)
        let store = try await self.store(for: namespace)
        let check = try await securityCheck(for: principal ?? .owner(of: namespace.database), in: store)
        let query = try await recordQuery(request.query, in: namespace, check: check)
        let count = try await run { () async throws(RecordStoreError) in
            try await store.count(ofType: query.recordType, matching: query.predicate, zone: zone)
        }
        return .object(["count": .integer(Int64(count))])
    }
}
#endif
