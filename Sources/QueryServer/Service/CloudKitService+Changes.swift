// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

/// The change history as CloudKit Web Services serves it: `records/changes` and `changes/zone`
/// (what changed in custom zones since each zone's `syncToken`), `changes/database` and
/// `zones/changes` (which zones changed since the database's token). Tokens are the store's
/// signed ``ChangeToken``s: every server of the same store reads them, and one older than the
/// kept history answers `CHANGE_TOKEN_EXPIRED`.
///
/// As on CloudKit, record changes are fetched from custom zones of the private database only:
/// the default zone, and any zone of the public database, answer `BAD_REQUEST`.
extension CloudKitService {
    /// `records/changes`: the records changed and deleted in one zone since its `syncToken`,
    /// with the next `syncToken` and `moreComing`.
    public func recordChanges(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        try await recordChanges(body, in: namespace, links: nil)
    }

    /// ``recordChanges(_:in:)`` with the links of the answer's assets (``AssetLinks``).
    func recordChanges(_ body: JSONValue, in namespace: Namespace, links: AssetLinks?) async throws(ServerError) -> JSONValue {
        let request = try RequestBodyDecoder.decode(RecordZoneChangesRequest.self, from: body)
        if namespace.sharedDatabaseUser != nil { return try await sharedZoneChanges(request, in: namespace, links: links) }
        try Self.requirePrivateDatabase(namespace, operation: "records/changes")
        return try await zoneChanges(request, in: namespace, style: answerStyle(namespace, links: links))
    }

    /// `changes/zone`: `records/changes` for several zones, each with its own token and limits;
    /// a zone that fails is an error entry, the others answer.
    public func zoneChanges(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        try await zoneChanges(body, in: namespace, links: nil)
    }

    /// ``zoneChanges(_:in:)`` with the links of the answer's assets (``AssetLinks``).
    func zoneChanges(_ body: JSONValue, in namespace: Namespace, links: AssetLinks?) async throws(ServerError) -> JSONValue {
        let style = answerStyle(namespace, links: links)
        let request = try RequestBodyDecoder.decode(DatabaseZoneChangesRequest.self, from: body)
        if namespace.sharedDatabaseUser == nil { try Self.requirePrivateDatabase(namespace, operation: "changes/zone") }
        var zones: [JSONValue] = []
        for zone in request.zones {
            do {
                zones.append(namespace.sharedDatabaseUser != nil
                    ? try await sharedZoneChanges(zone, in: namespace, links: links)
                    : try await zoneChanges(zone, in: namespace, style: style))
            } catch {
                zones.append(.object([
                    "zoneID": WireRecord.zoneJSON(zone.zoneID.zoneName), "serverErrorCode": .string(error.code.rawValue),
                    "reason": .string(error.reason),
                ]))
            }
        }
        return .object(["zones": .array(zones)])
    }

    /// `changes/database`: the zones created, changed or deleted since the database's
    /// `syncToken` (`{zoneID}` or `{zoneID, deleted: true}`), the next token and `moreComing`.
    public func databaseChanges(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let request = try RequestBodyDecoder.decode(DatabaseChangesRequest.self, from: body)
        if namespace.sharedDatabaseUser != nil { return try await sharedDatabaseChanges(request, in: namespace) }
        try Self.requirePrivateDatabase(namespace, operation: "changes/database")
        return try await changedZones(request, in: namespace, withTokens: false)
    }

    /// `zones/changes`: as `changes/database`, each changed zone a zone dictionary with its
    /// current `syncToken`; answered in the public database too.
    public func zonesChanges(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let request = try RequestBodyDecoder.decode(DatabaseChangesRequest.self, from: body)
        _ = try await zone(nil, in: namespace)
        return try await changedZones(request, in: namespace, withTokens: true)
    }

    /// One zone's changes, as `records/changes` answers them.
    private func zoneChanges(_ request: RecordZoneChangesRequest, in namespace: Namespace, style: RecordAnswerStyle) async throws(ServerError) -> JSONValue {
        let zoneName = request.zoneID.zoneName
        let zone = try namespace.storedZone(zoneName)
        guard !namespace.isDefaultZone(zone) else {
            throw ServerError(.badRequest, "fetching record changes is supported only for custom zones, not '\(zoneName)'")
        }
        let store = try await bookkeepingStore(for: namespace.environment)
        let changes = try await run { () async throws(RecordStoreError) in
            try await store.changes(
                in: zone, since: request.syncToken, limit: request.resultsLimit, desiredKeys: ReferenceAction.keepingActions(request.desiredKeys),
                recordTypes: request.desiredRecordTypes)
        }
        var records = changes.changedRecords.map { record in
            WireRecord.json(record, zoneName: zoneName, desiredKeys: nil, numbersAsStrings: request.numbersAsStrings, style: style)
        }
        records += changes.deletedRecords.map { WireRecord.deletedJSON(recordName: $0.recordID.recordName, zoneName: zoneName) }
        return .object([
            "zoneID": WireRecord.zoneJSON(zoneName), "records": .array(records),
            "syncToken": .string(changes.token.stringValue), "moreComing": .bool(changes.moreComing),
        ])
    }

    /// The namespace's zone changes since a database token. The store's history holds every
    /// namespace's zones: the others are left out, so a page may hold fewer than its limit.
    private func changedZones(_ request: DatabaseChangesRequest, in namespace: Namespace, withTokens: Bool) async throws(ServerError) -> JSONValue {
        let store = try await bookkeepingStore(for: namespace.environment)
        let changes = try await run { () async throws(RecordStoreError) in
            try await store.databaseChanges(since: request.syncToken, limit: request.resultsLimit)
        }
        var zones: [JSONValue] = []
        for zone in changes.changedZones {
            guard let name = namespace.clientZoneName(zone) else { continue }
            zones.append(withTokens ? try await zoneJSON(name, stored: zone, in: namespace) : .object(["zoneID": WireRecord.zoneJSON(name)]))
        }
        for zone in changes.deletedZones {
            guard let name = namespace.clientZoneName(zone) else { continue }
            zones.append(.object(["zoneID": WireRecord.zoneJSON(name), "deleted": .bool(true)]))
        }
        return .object(["zones": .array(zones), "syncToken": .string(changes.token.stringValue), "moreComing": .bool(changes.moreComing)])
    }

    /// A zone dictionary with the zone's current `syncToken` (in the namespace's store).
    func zoneJSON(_ name: String, stored zone: ZoneID, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let store = try await bookkeepingStore(for: namespace.environment)
        let token = try await run { () async throws(RecordStoreError) in try await store.currentChangeToken(for: zone) }
        return .object(["zoneID": WireRecord.zoneJSON(name), "atomic": .bool(true), "syncToken": .string(token.stringValue)])
    }

    private static func requirePrivateDatabase(_ namespace: Namespace, operation: String) throws(ServerError) {
        guard case .private = namespace.database else {
            throw ServerError(.badRequest, "\(operation) is supported only in the private and shared databases (CloudKit keeps no change history of the public database's records)")
        }
    }
}
#endif
