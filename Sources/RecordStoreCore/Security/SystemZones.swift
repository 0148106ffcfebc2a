/// The zones a store keeps for itself: its security policy and role holders (`security`) and
/// the index of its shares (`shares/index`). `query serve` never lets a client name one (its own
/// zones, `users/…` and `subscriptions/…`, hold a `/`, which no client zone name may), and no
/// zone of them shows in a zone list.
///
/// ```swift
/// SystemZones.contains(ZoneID(zoneName: "security"))   // true
/// SystemZones.contains(ZoneID(zoneName: "Trips"))      // false
/// ```
public enum SystemZones {
    /// The zones.
    public static let zones: Set<ZoneID> = [Store.securityZone, ShareRecords.zone]

    /// Whether a zone is one of them.
    public static func contains(_ zone: ZoneID) -> Bool { zones.contains(zone) }
}
