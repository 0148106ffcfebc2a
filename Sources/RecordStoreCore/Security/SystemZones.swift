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
    /// The zone of the security policy and the role holders.
    static let security = ZoneID(zoneName: "security")
    /// The zone of the shares' index (its name holds a `/`, as the server's own zones' do):
    /// every change to a share writes it, so a commit that touches it may have changed who
    /// shares what.
    ///
    /// ```swift
    /// commit.entries.contains { $0.recordID.zoneID == SystemZones.shareIndex }
    /// ```
    public static let shareIndex = ZoneID(zoneName: "shares/index")

    /// The zones.
    public static let zones: Set<ZoneID> = [security, shareIndex]

    /// Whether a zone is one of them.
    public static func contains(_ zone: ZoneID) -> Bool { zones.contains(zone) }
}
