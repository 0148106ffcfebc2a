import PredicateLanguage
import RecordStore

extension CloudKitService {
    /// `records/query`: the records of a query in a zone, a batch at a time.
    ///
    /// Takes `zoneID`, `resultsLimit` (1 to 200, default 200), `desiredKeys`, `numbersAsStrings`,
    /// `continuationMarker`, and `query` with `recordType`, `filterBy`, `sortBy`, and this
    /// server's extension `predicate` (an NSPredicate format string) with `arguments`. Answers
    /// `{"records": [...], "continuationMarker": "..."}`, the marker present while records remain.
    public func query(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        // The server sends these bytes as they are; read back, they are the JSON of the answer.
        let bytes = try await queryAnswer(body, in: namespace).jsonBytes()
        do {
            return try JSONValue(parsing: bytes)
        } catch {
            throw ServerError(.internalError, "the answer could not be read back: \(error)")
        }
    }

    /// A query's batch and how to write it: what ``query(_:in:)`` answers, before it becomes JSON
    /// (the server writes it straight into bytes, ``QueryAnswer/jsonBytes()``).
    func queryAnswer(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> QueryAnswer {
        let zone = try await zone(from: body["zoneID"], in: namespace)
        let limit = try resultsLimit(body["resultsLimit"])
        let desiredKeys = try Self.desiredKeys(body["desiredKeys"])
        let numbersAsStrings = body["numbersAsStrings"]?.boolValue ?? false

        let batch: QueryBatch
        if let marker = body["continuationMarker"], !marker.isNull {
            guard let text = marker.stringValue else { throw ServerError(.badRequest, "continuationMarker is a string") }
            let cursor: QueryCursor
            do {
                cursor = try QueryCursor(string: text)
                let (_, cursorZone) = try store.query(of: cursor)
                // A marker made for another zone or namespace continues nothing here.
                guard cursorZone == zone else { throw ServerError(.badRequest, "the continuationMarker was made for another zone") }
            } catch let error as ServerError {
                throw error
            } catch {
                throw ServerError(.badRequest, "the continuationMarker is not one this server made: \(error)")
            }
            batch = try await run { () async throws(RecordStoreError) in
                try await store.records(continuingMatchFrom: cursor, desiredKeys: desiredKeys, resultsLimit: limit)
            }
        } else {
            let query = try await recordQuery(body["query"])
            batch = try await run { () async throws(RecordStoreError) in
                try await store.records(matching: query, inZone: zone, desiredKeys: desiredKeys, resultsLimit: limit)
            }
        }
        return QueryAnswer(batch: batch, zoneName: namespace.clientZoneName(zone) ?? zone.zoneName,
                           desiredKeys: desiredKeys.map(Set.init), numbersAsStrings: numbersAsStrings)
    }

    /// `resultsLimit`: 1 to 200; absent, the most.
    private func resultsLimit(_ value: JSONValue?) throws(ServerError) -> Int {
        guard let value, !value.isNull else { return Self.maximumBatch }
        guard let limit = value.integerValue, limit >= 1, limit <= Int64(Self.maximumBatch) else {
            throw ServerError(.badRequest, "resultsLimit is a number from 1 to \(Self.maximumBatch)")
        }
        return Int(limit)
    }

    /// `desiredKeys`: an array of field names, or null for every field.
    static func desiredKeys(_ value: JSONValue?) throws(ServerError) -> [String]? {
        guard let value, !value.isNull else { return nil }
        guard let keys = value.arrayValue else { throw ServerError(.badRequest, "desiredKeys is an array of field names or null") }
        var names: [String] = []
        for key in keys {
            guard let name = key.stringValue else { throw ServerError(.badRequest, "desiredKeys holds \(key.kindName), not a field name") }
            names.append(name)
        }
        return names
    }

    /// The store's query for a request's `query` object. A `filterBy` value that does not fit
    /// the type the schema gives its field is `BAD_REQUEST` naming the field and its type.
    func recordQuery(_ value: JSONValue?) async throws(ServerError) -> RecordQuery {
        guard let value, case .object = value else { throw ServerError(.badRequest, "the request has no \"query\" object") }
        guard let recordType = value["recordType"]?.stringValue else { throw ServerError(.badRequest, "query.recordType is missing") }
        let schema = try await run { () async throws(RecordStoreError) in try await store.schema(for: recordType) }
        var fieldTypes: [String: FieldType] = [:]
        for field in schema?.fields ?? [] { fieldTypes[field.name] = field.type }
        var predicate = try QueryFilter.predicate(from: value["filterBy"], fieldTypes: fieldTypes)
        if let format = value["predicate"], !format.isNull {
            // This server's extension: an NSPredicate format string, held to the server's rules.
            guard let text = format.stringValue else { throw ServerError(.badRequest, "query.predicate is an NSPredicate format string") }
            let extra = try formatPredicate(text, arguments: value["arguments"])
            predicate = predicate == .truePredicate ? extra : .and([predicate, extra])
        }
        let sorts = try QuerySort.sorts(from: value["sortBy"])
        do {
            return try RecordQuery(recordType: recordType, predicate: predicate, sorts: sorts)
        } catch {
            throw Self.serverError(error)
        }
    }

    /// `query.predicate` with `query.arguments` (values in the command line's JSON mapping).
    private func formatPredicate(_ text: String, arguments: JSONValue?) throws(ServerError) -> FormatPredicate {
        var values: [Value] = []
        if let arguments, !arguments.isNull {
            guard let list = arguments.arrayValue else { throw ServerError(.badRequest, "query.arguments is an array") }
            for argument in list { values.append(try TypedJSON.value(argument)) }
        }
        do {
            let predicate = try FormatPredicate(format: text, argumentArray: values)
            try predicateRules.validate(predicate)
            return predicate
        } catch {
            throw ServerError(.badRequest, "query.predicate: \(error)")
        }
    }
}
