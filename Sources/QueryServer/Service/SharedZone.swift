// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

/// One zone of a user's shared database: another user's private zone, and the shares of it
/// the user accepted (a zone-wide share, or record shares of some of its hierarchies).
///
/// The records stay in the owner's private database (``ownerNamespace``); the shared database
/// answers a request about the zone by running it there, keeping only what the shares let the
/// user read, and writing only where they let the user write.
struct SharedZone: Sendable {
    /// The user whose shared database holds the zone.
    let user: String
    /// The owner's private database.
    let ownerNamespace: Namespace
    /// The zone as stored.
    let zone: ZoneID
    /// The zone's name, as the owner and the user both see it.
    let zoneName: String
    /// The owner's user record name: the zone's `ownerRecordName` in the shared database.
    let ownerRecordName: String
    /// The shares of the zone that give the user access.
    let shares: [RecordShare]

    /// What the zone-wide share gives the user on every record of the zone; nil when the zone is
    /// shared record by record.
    var zoneWidePermission: SharePermission? {
        shares.first(where: \.isZoneWide)?.permission(for: user)
    }

    /// The zone's `zoneID` object.
    var zoneIDJSON: JSONValue {
        .object(["zoneName": .string(zoneName), "ownerRecordName": .string(ownerRecordName)])
    }

    /// The zones shared with `user` from these shares, by owner, then zone name: every share the
    /// user may use (``RecordShare/permission(for:)``), grouped by zone.
    static func zones(of shares: [RecordShare], for user: String) -> [SharedZone] {
        var byZone: [ZoneID: [RecordShare]] = [:]
        for share in shares where share.permission(for: user) != nil {
            byZone[share.zoneID, default: []].append(share)
        }
        let zones = byZone.compactMap { zone, shares -> SharedZone? in
            guard let (namespace, zoneName) = Namespace.privateDatabase(of: zone), let owner = shares.first?.owner else { return nil }
            return SharedZone(user: user, ownerNamespace: namespace, zone: zone, zoneName: zoneName, ownerRecordName: owner, shares: shares)
        }
        return zones.sorted { ($0.ownerRecordName, $0.zoneName) < ($1.ownerRecordName, $1.zoneName) }
    }
}
#endif
