// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

extension CloudKitService {
    /// `records/query`: the records of a query in a zone, a batch at a time.
    ///
    /// Takes `zoneID`, `resultsLimit` (1 to 200, default 200), `desiredKeys`, `numbersAsStrings`,
    /// `continuationMarker`, and `query` with `recordType`, `filterBy`, `sortBy`, and this
    /// server's extension `predicate` (an NSPredicate format string) with `arguments`. Answers
    /// `{"records": [...], "continuationMarker": "..."}`, the marker present while records remain.
    /// `links` makes the `downloadURL` of assets (`AssetLinks`; the HTTP routes give it).
    public func query(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        try await query(body, in: namespace, links: nil)
    }

    /// ``query(_:in:)`` with the links of the answer's assets.
    func query(_ body: JSONValue, in namespace: Namespace, links: AssetLinks?) async throws(ServerError) -> JSONValue {
        // The server sends these bytes as they are; read back, they are the JSON of the answer.
        try JSONResponse.value(readingBack: await queryAnswer(body, in: namespace, links: links).jsonBytes())
    }

    /// A query's batch and how to write it: what ``query(_:in:)`` answers, before it becomes JSON
    /// (the server writes it straight into bytes, ``QueryAnswer/jsonBytes()``).
    ///
    /// A `principal` held to security roles reads only what the record type grants it `READ`
    /// on: a type it may not read is `ACCESS_DENIED` as a whole, and a type whose `READ` is granted
    /// to `_creator` alone answers the records it created.
    func queryAnswer(
        _ body: JSONValue, in namespace: Namespace, principal: RequestPrincipal? = nil, links: AssetLinks? = nil
    ) async throws(ServerError) -> QueryAnswer {
        let request = try RequestBodyDecoder.decode(RecordsQueryRequest.self, from: body)
        let zone = try await zone(request.zoneID, in: namespace)
        let limit = request.resultsLimit
        let desiredKeys = ReferenceAction.keepingActions(request.desiredKeys)
        let store = try await self.store(for: namespace)
        let check = try await securityCheck(for: principal ?? .owner(of: namespace.database), in: store)

        let batch: QueryBatch
        switch request.source {
        case .continuation(let text):
            let cursor: QueryCursor
            let recordType: String
            do {
                cursor = try QueryCursor(string: text)
                let (query, cursorZone) = try store.query(of: cursor)
                // A marker made for another zone or namespace continues nothing here.
                guard cursorZone == zone else { throw ServerError(.badRequest, "the continuationMarker was made for another zone") }
                recordType = query.recordType
            } catch let error as ServerError {
                throw error
            } catch {
                throw ServerError(.badRequest, "the continuationMarker is not one this server made: \(error)")
            }
            if let check, check.readAccess(to: recordType) == .none { throw check.denial(.read, recordType: recordType) }
            let costLimits = queryLimits.costLimits()
            var continued = try await runQuery { () async throws(RecordStoreError) in
                try await store.records(continuingMatchFrom: cursor, desiredKeys: desiredKeys, resultsLimit: limit, costLimits: costLimits)
            }
            // A marker another user made answers this caller only what they may read.
            if let check { continued.records.removeAll { !check.mayRead($0) } }
            batch = continued
        case .query(let queryRequest):
            let query = try await recordQuery(queryRequest, in: namespace, check: check)
            let costLimits = queryLimits.costLimits()
            batch = try await runQuery { () async throws(RecordStoreError) in
                try await store.records(matching: query, inZone: zone, desiredKeys: desiredKeys, resultsLimit: limit, costLimits: costLimits)
            }
        }
        var answer = QueryAnswer(batch: batch, zoneName: namespace.clientZoneName(zone) ?? zone.zoneName,
                                 desiredKeys: desiredKeys.map(Set.init), numbersAsStrings: request.numbersAsStrings,
                                 style: answerStyle(namespace, links: links))
        answer.style.rootShares = try await rootShares(of: batch.records.map(\.recordID), in: namespace, store: store)
        return answer
    }

    /// Runs a query's store call, its errors answered as CloudKit's: a query past the server's
    /// ``QueryLimits`` of evaluation steps or time is `BAD_REQUEST` naming the limit.
    private func runQuery<T>(_ body: () async throws(RecordStoreError) -> T) async throws(ServerError) -> T {
        do {
            return try await body()
        } catch .queryTooExpensive(.steps) {
            throw ServerError(.badRequest, "the query is too expensive: testing its predicate on the records took more than "
                + "\(queryLimits.maximumEvaluationSteps) evaluation steps (collection members visited by SUBQUERY, ANY, ALL, NONE and "
                + "collection operators), the server's limit for one request (QueryLimits.maximumEvaluationSteps); narrow the query with indexed filters")
        } catch .queryTooExpensive(.deadline) {
            throw ServerError(.badRequest, "the query is too expensive: testing its predicate on the records took longer than "
                + "\(queryLimits.evaluationTimeLimit), the server's limit for one request (QueryLimits.evaluationTimeLimit); narrow the query with indexed filters")
        } catch {
            throw Self.serverError(error)
        }
    }

    /// The store's query for a request's `query` object in a namespace, its references in the
    /// namespace's zone names. A `filterBy` value that does not fit the type the schema gives its
    /// field is `BAD_REQUEST` naming the field and its type; so is a query larger than the
    /// server's ``QueryLimits`` allow (filters, tokens, list values), naming the limit.
    ///
    /// With a security `check`, a record type the caller may not read is `ACCESS_DENIED`, and
    /// one whose `READ` goes to `_creator` alone gets `creatorUserRecordName == the caller`.
    func recordQuery(_ request: RecordQueryRequest, in namespace: Namespace, check: SecurityCheck? = nil) async throws(ServerError) -> RecordQuery {
        let request = try request.stored(in: namespace)
        let recordType = request.recordType
        let store = try await self.store(for: namespace)
        let schema = try await run { () async throws(RecordStoreError) in try await store.schema(for: recordType) }
        var fieldTypes: [String: FieldType] = [:]
        for field in schema?.fields ?? [] { fieldTypes[field.name] = field.type }
        var predicate = try QueryFilter.predicate(
            from: request.filterBy, fieldTypes: fieldTypes, limits: queryLimits, owner: UserRecordName.owner(of: namespace.database))
        if let text = request.predicate {
            // This server's extension: an NSPredicate format string, held to the server's rules.
            let extra = try formatPredicate(text, arguments: request.arguments)
            predicate = predicate == .truePredicate ? extra : .and([predicate, extra])
        }
        try queryLimits.check(predicate)
        let query: RecordQuery
        do {
            query = try RecordQuery(recordType: recordType, predicate: predicate, sorts: QuerySort.sorts(from: request.sortBy))
        } catch {
            throw Self.serverError(error)
        }
        guard let check else { return query }
        guard let readable = check.policy.readable(query, for: check.principal) else { throw check.denial(.read, recordType: recordType) }
        return readable
    }

    /// `query.predicate` with `query.arguments` (values in the command line's JSON mapping).
    private func formatPredicate(_ text: String, arguments: [Value]) throws(ServerError) -> FormatPredicate {
        do {
            let predicate = try FormatPredicate(format: text, argumentArray: arguments)
            try predicateRules.validate(predicate)
            return predicate
        } catch {
            throw ServerError(.badRequest, "query.predicate: \(error)")
        }
    }
}
#endif
