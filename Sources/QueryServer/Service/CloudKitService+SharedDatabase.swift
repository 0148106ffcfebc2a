// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

/// The shared database: each user's view of the zones and records other users shared with them.
///
/// Nothing is stored in it. A request names a zone by `zoneName` and `ownerRecordName`; the
/// service finds the shares of that owner's zone the user accepted (``SharedZone``), runs the
/// request in the owner's private database, and keeps to what the shares allow:
/// - reads answer only the records a share reaches (the zone-wide share reaches them all; a
///   record share, its root and the records whose `parent` chain reaches the root); any other
///   record is `NOT_FOUND`;
/// - writes need `READ_WRITE` on the record (or, for a new record, on the parent it names):
///   `READ_ONLY` is `ACCESS_DENIED`; the saves name the participant as their modifier and land
///   in the owner's zone, whose change tokens advance for both;
/// - the shares are read afresh on every request, so a participant the owner removed loses
///   access at their next request (`ZONE_NOT_FOUND`: the zone is no longer in their database).
extension CloudKitService {
    /// The zones of a user's shared database, by owner, then zone name.
    func sharedZones(in namespace: Namespace) async throws(ServerError) -> [SharedZone] {
        guard let user = namespace.sharedDatabaseUser else { return [] }
        let store = try await store(for: namespace)
        let shares = try await run { () async throws(RecordStoreError) in try await store.shares(sharedWith: user) }
        return SharedZone.zones(of: shares, for: user)
    }

    /// The shared zone a request names: `ZONE_NOT_FOUND` when no accepted share opens a zone of
    /// that name (of that owner, when `ownerRecordName` is given); `BAD_REQUEST` when two owners
    /// share a zone of that name and the request does not say whose.
    func sharedZone(_ request: ZoneIDRequest?, in namespace: Namespace) async throws(ServerError) -> SharedZone {
        let name = request?.zoneName ?? ZoneID.default.zoneName
        let matching = try await sharedZones(in: namespace).filter { zone in
            zone.zoneName == name && (request?.ownerRecordName.map { $0 == zone.ownerRecordName } ?? true)
        }
        guard let zone = matching.first else {
            throw ServerError(.zoneNotFound, "zone '\(name.prefix(80))' is not shared with you"
                + (request?.ownerRecordName.map { " by '\($0.prefix(80))'" } ?? ""))
        }
        guard matching.count == 1 else {
            throw ServerError(.badRequest, "zones named '\(name.prefix(80))' are shared with you by \(matching.count) users; name one with zoneID.ownerRecordName")
        }
        return zone
    }

    /// `zones/list` in the shared database: the zones shared with the user, each with its owner.
    func listSharedZones(in namespace: Namespace) async throws(ServerError) -> JSONValue {
        var entries: [JSONValue] = []
        for zone in try await sharedZones(in: namespace) { entries.append(try await sharedZoneJSON(zone)) }
        return .object(["zones": .array(entries)])
    }

    /// `zones/lookup` in the shared database: each zone asked for, or a `ZONE_NOT_FOUND` entry.
    func lookupSharedZones(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let request = try RequestBodyDecoder.decode(ZonesLookupRequest.self, from: body)
        var entries: [JSONValue] = []
        for zoneID in request.zones {
            do {
                entries.append(try await sharedZoneJSON(try await sharedZone(zoneID, in: namespace)))
            } catch where error.code == .zoneNotFound {
                entries.append(.object(["zoneID": .object(["zoneName": .string(zoneID.zoneName)]),
                                        "serverErrorCode": .string(error.code.rawValue), "reason": .string(error.reason)]))
            }
        }
        return .object(["zones": .array(entries)])
    }

    /// A shared zone's dictionary with its current `syncToken`.
    private func sharedZoneJSON(_ zone: SharedZone) async throws(ServerError) -> JSONValue {
        let store = try await bookkeepingStore(for: zone.ownerNamespace.environment)
        let token = try await run { () async throws(RecordStoreError) in try await store.currentChangeToken(for: zone.zone) }
        return .object(["zoneID": zone.zoneIDJSON, "atomic": .bool(true), "syncToken": .string(token.stringValue)])
    }

    /// `records/query` in the shared database: the query run in the owner's zone, its batch
    /// keeping the records the user's shares reach. A batch may hold fewer records than asked
    /// while a `continuationMarker` says more remain.
    func sharedQueryAnswer(_ body: JSONValue, in namespace: Namespace, links: AssetLinks?) async throws(ServerError) -> QueryAnswer {
        let request = try RequestBodyDecoder.decode(RecordsQueryRequest.self, from: body)
        let shared = try await sharedZone(request.zoneID, in: namespace)
        var answer = try await queryAnswer(body, in: shared.ownerNamespace, links: links)
        let permissions = try await sharePermissions(of: answer.batch.records.map(\.recordID), in: shared)
        answer.batch.records.removeAll { permissions[$0.recordID] == nil }
        answer.style.zoneOwner = shared.ownerRecordName
        return answer
    }

    /// `records/lookup` in the shared database: the lookup run in the owner's zone, a record no
    /// share of the user's reaches answered `NOT_FOUND`.
    func sharedLookup(_ body: JSONValue, in namespace: Namespace, links: AssetLinks?) async throws(ServerError) -> RecordsAnswer {
        let request = try RequestBodyDecoder.decode(RecordsLookupRequest.self, from: body)
        let shared = try await sharedZone(request.zoneID, in: namespace)
        return try await lookupAnswer(body, in: shared.ownerNamespace, links: links, shared: shared)
    }

    /// `records/modify` in the shared database: the modify run in the owner's zone for the user,
    /// each operation held to what their shares allow.
    func sharedModify(_ body: JSONValue, in namespace: Namespace, links: AssetLinks?) async throws(ServerError) -> RecordsAnswer {
        let request = try RequestBodyDecoder.decode(RecordsModifyRequest.self, from: body)
        let shared = try await sharedZone(request.zoneID, in: namespace)
        let participant = RequestPrincipal(userRecordName: shared.user, followsSecurityRoles: false)
        return try await modifyAnswer(body, in: shared.ownerNamespace, principal: participant, links: links, shared: shared)
    }

    /// What the user's shares give them on each of these records of a shared zone (records
    /// they may not read left out). The shares themselves are readable (never writable: only
    /// their owner saves them, ``modifyAnswer(_:in:principal:links:shared:)``).
    func sharePermissions(of recordIDs: [RecordID], in shared: SharedZone) async throws(ServerError) -> [RecordID: SharePermission] {
        if let permission = shared.zoneWidePermission {
            return Dictionary(recordIDs.map { ($0, permission) }, uniquingKeysWith: { first, _ in first })
        }
        guard !recordIDs.isEmpty else { return [:] }
        let store = try await store(for: shared.ownerNamespace)
        var permissions = try await run { () async throws(RecordStoreError) in try await store.sharePermissions(of: recordIDs, for: shared.user) }
        let shareIDs = Set(shared.shares.map(\.recordID))
        for id in recordIDs where shareIDs.contains(id) { permissions[id] = .readOnly }
        return permissions
    }

    /// The `ACCESS_DENIED` or `NOT_FOUND` of a write the user's shares do not allow, or nil
    /// when they allow it: `READ_WRITE` on the stored record, or for a new one on the record as
    /// it would be saved (through its parent).
    func sharedWriteRefusal(of operation: ModifyOperation, saving record: Record?, stored: Record?, in shared: SharedZone) async throws(ServerError) -> ModifyFailure? {
        let name = operation.id.recordName
        if operation.share != nil {
            return ModifyFailure(.accessDenied, "record '\(name)': only the share's owner saves a share")
        }
        let permission: SharePermission?
        if let stored {
            permission = try await sharePermissions(of: [stored.recordID], in: shared)[stored.recordID]
        } else if record != nil, let zoneWide = shared.zoneWidePermission {
            permission = zoneWide
        } else if let record {
            let store = try await store(for: shared.ownerNamespace)
            permission = try await run { () async throws(RecordStoreError) in try await store.sharePermission(toSave: record, for: shared.user) }
        } else {
            return ModifyFailure(.notFound, "record '\(name)' was not found")
        }
        switch permission {
        case .readWrite?: return nil
        case .readOnly?: return ModifyFailure(.accessDenied, "record '\(name)' is shared with you read-only")
        case .none?, nil:
            return stored == nil
                ? ModifyFailure(.accessDenied, "record '\(name)' would not be in a hierarchy shared with you: give it a parent that is")
                : ModifyFailure(.notFound, "record '\(name)' was not found")
        }
    }
}
#endif
