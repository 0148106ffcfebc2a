// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

extension CloudKitService {
    /// `records/lookup`: records by name, each found record or a `NOT_FOUND` entry, in the
    /// order asked. Takes `records: [{recordName, desiredKeys}]`, `zoneID`, `desiredKeys`,
    /// `numbersAsStrings`.
    public func lookup(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        try await lookupAnswer(body, in: namespace, links: nil).jsonValue()
    }

    /// ``lookup(_:in:)`` for a principal, with the links of the answer's assets (``AssetLinks``).
    /// A record the principal's grants do not let it read is `ACCESS_DENIED` in its entry.
    ///
    /// With `shared` (a zone of the user's shared database), `namespace` is the zone owner's
    /// private database, and a record no share of the user's reaches is `NOT_FOUND`.
    ///
    /// The route writes the answer into bytes (``RecordsAnswer/jsonBytes()``), its records
    /// straight from the store's.
    func lookupAnswer(
        _ body: JSONValue, in namespace: Namespace, principal: RequestPrincipal? = nil, links: AssetLinks?, shared: SharedZone? = nil
    ) async throws(ServerError) -> RecordsAnswer {
        var style = answerStyle(namespace, links: links)
        if let shared { style.zoneOwner = shared.ownerRecordName }
        let request = try RequestBodyDecoder.decode(RecordsLookupRequest.self, from: body)
        let zone = try await zone(request.zoneID, in: namespace)
        let zoneName = namespace.clientZoneName(zone) ?? zone.zoneName
        let numbersAsStrings = request.numbersAsStrings
        let requests = request.records.map { entry in
            (id: RecordID(recordName: entry.recordName, zoneID: zone), keys: (entry.desiredKeys ?? request.desiredKeys).map(Set.init))
        }
        let store = try await self.store(for: namespace)
        let check = try await securityCheck(for: principal ?? .owner(of: namespace.database), in: store)
        let found = try await run { () async throws(RecordStoreError) in try await store.records(for: requests.map(\.id)) }
        let foundIDs = requests.map(\.id).filter { if case .success? = found[$0] { true } else { false } }
        var readable: [RecordID: SharePermission]?
        if let shared { readable = try await sharePermissions(of: foundIDs, in: shared) }
        style.rootShares = try await rootShares(of: foundIDs, in: namespace, store: store)
        var entries: [RecordsAnswer.Entry] = []
        entries.reserveCapacity(requests.count)
        for request in requests {
            guard case .success(let record)? = found[request.id], readable?[request.id] != nil || readable == nil else {
                entries.append(.json(Self.recordError(request.id.recordName, .notFound, "record '\(request.id.recordName)' was not found")))
                continue
            }
            if let check, !check.mayRead(record) {
                entries.append(.json(Self.recordError(request.id.recordName, .accessDenied, check.reason(.read, recordType: record.recordType, recordName: request.id.recordName))))
                continue
            }
            entries.append(try await answerEntry(record, in: store, zoneName: zoneName, desiredKeys: request.keys, style: style, user: shared?.user ?? principal?.userRecordName))
        }
        return RecordsAnswer(zoneName: zoneName, numbersAsStrings: numbersAsStrings, style: style, entries: entries)
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
#endif
