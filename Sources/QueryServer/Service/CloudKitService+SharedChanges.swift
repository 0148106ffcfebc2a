// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

/// The change history of the shared database: `records/changes` and `changes/zone` answer a
/// shared zone's changes (its records the user's shares reach), and `changes/database` the zones
/// shared with the user that changed, appeared, or went away since the token
/// (``SharedDatabaseToken``).
///
/// A record share's deletions are answered as the zone's: the store cannot tell whether a
/// deleted record was in the shared hierarchy once it is gone, so a participant may be told of
/// the deletion of a record they never saw (its name only).
extension CloudKitService {
    /// One shared zone's changes, as `records/changes` answers them.
    func sharedZoneChanges(_ request: RecordZoneChangesRequest, in namespace: Namespace, links: AssetLinks?) async throws(ServerError) -> JSONValue {
        let shared = try await sharedZone(request.zoneID, in: namespace)
        var style = answerStyle(shared.ownerNamespace, links: links)
        style.zoneOwner = shared.ownerRecordName
        let store = try await bookkeepingStore(for: shared.ownerNamespace.environment)
        let changes = try await run { () async throws(RecordStoreError) in
            try await store.changes(
                in: shared.zone, since: request.syncToken, limit: request.resultsLimit, desiredKeys: ReferenceAction.keepingActions(request.desiredKeys),
                recordTypes: request.desiredRecordTypes)
        }
        let readable = try await sharePermissions(of: changes.changedRecords.map(\.recordID), in: shared)
        var records: [JSONValue] = []
        for record in changes.changedRecords where readable[record.recordID] != nil {
            let entry = try await answerEntry(record, in: store, zoneName: shared.zoneName, desiredKeys: nil, style: style, user: shared.user)
            records.append(entry.json(zoneName: shared.zoneName, numbersAsStrings: request.numbersAsStrings, style: style))
        }
        for deleted in changes.deletedRecords {
            records.append(.object(["recordName": .string(deleted.recordID.recordName), "deleted": .bool(true), "zoneID": shared.zoneIDJSON]))
        }
        return .object([
            "zoneID": shared.zoneIDJSON, "records": .array(records),
            "syncToken": .string(changes.token.stringValue), "moreComing": .bool(changes.moreComing),
        ])
    }

    /// `changes/database` in the shared database: `{zoneID}` for each zone shared with the user
    /// that is new to the token or changed since it, `{zoneID, deleted: true}` for each zone the
    /// token held that is no longer shared with them (the share deleted, or the user removed).
    func sharedDatabaseChanges(_ request: DatabaseChangesRequest, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let token = try SharedDatabaseToken(request.syncToken)
        let current = try await sharedZones(in: namespace)
        let store = try await bookkeepingStore(for: namespace.environment)
        let changes = try await run { () async throws(RecordStoreError) in
            try await store.databaseChanges(since: token.storeToken, limit: request.resultsLimit)
        }
        let changed = Set(changes.changedZones)
        var zones: [JSONValue] = []
        var held = Set<SharedDatabaseToken.Zone>()
        for zone in current {
            let key = SharedDatabaseToken.Zone(owner: zone.ownerRecordName, zoneName: zone.zoneName)
            held.insert(key)
            if !token.zones.contains(key) || changed.contains(zone.zone) { zones.append(.object(["zoneID": zone.zoneIDJSON])) }
        }
        for gone in token.zones.subtracting(held).sorted() {
            zones.append(.object(["zoneID": .object(["zoneName": .string(gone.zoneName), "ownerRecordName": .string(gone.owner)]), "deleted": .bool(true)]))
        }
        let next = SharedDatabaseToken(storeToken: changes.token, zones: held)
        return .object(["zones": .array(zones), "syncToken": .string(next.changeToken.stringValue), "moreComing": .bool(changes.moreComing)])
    }
}
#endif
