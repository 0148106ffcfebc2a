import RecordStore

extension CloudKitService {
    /// `records/lookup`: records by name, each found record or a `NOT_FOUND` entry, in the
    /// order asked. Takes `records: [{recordName, desiredKeys}]`, `zoneID`, `desiredKeys`,
    /// `numbersAsStrings`.
    public func lookup(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let zone = try await zone(from: body["zoneID"], in: namespace)
        let zoneName = namespace.clientZoneName(zone) ?? zone.zoneName
        let numbersAsStrings = body["numbersAsStrings"]?.boolValue ?? false
        let sharedKeys = try Self.desiredKeys(body["desiredKeys"])
        guard let entries = body["records"]?.arrayValue else { throw ServerError(.badRequest, "records is an array of {\"recordName\": string}") }
        guard entries.count <= Self.maximumBatch else { throw ServerError(.badRequest, "at most \(Self.maximumBatch) records a lookup") }
        var requests: [(id: RecordID, keys: Set<String>?)] = []
        for (index, entry) in entries.enumerated() {
            guard let name = entry["recordName"]?.stringValue, !name.isEmpty else {
                throw ServerError(.badRequest, "records[\(index)] has no \"recordName\" string")
            }
            let keys = try Self.desiredKeys(entry["desiredKeys"]) ?? sharedKeys
            requests.append((RecordID(recordName: name, zoneID: zone), keys.map(Set.init)))
        }
        let found = try await run { () async throws(RecordStoreError) in try await store.records(for: requests.map(\.id)) }
        return .object(["records": .array(requests.map { request in
            if case .success(let record)? = found[request.id] {
                return WireRecord.json(record, zoneName: zoneName, desiredKeys: request.keys, numbersAsStrings: numbersAsStrings)
            }
            return Self.recordError(request.id.recordName, .notFound, "record '\(request.id.recordName)' was not found")
        })])
    }

    /// A per-record error entry: `{recordName, serverErrorCode, reason}` (and the server's
    /// record, for a conflict).
    static func recordError(_ recordName: String, _ code: ServerErrorCode, _ reason: String, serverRecord: JSONValue? = nil) -> JSONValue {
        var members: [String: JSONValue] = [
            "recordName": .string(recordName), "serverErrorCode": .string(code.rawValue), "reason": .string(reason),
        ]
        if let serverRecord { members["serverRecord"] = serverRecord }
        return .object(members)
    }
}
