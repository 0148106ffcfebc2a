import PredicateLanguage

/// The identifier of a record zone: every query runs in one zone.
///
/// Every store has the default zone, ``ZoneID/default`` (`_defaultZone`);
/// other zones are created with ``Store/createZone(_:)-8np3e``.
///
/// ```swift
/// let zone = ZoneID(zoneName: "Archive")
/// try store.createZone(zone)
/// let old = try store.records(ofType: "City", matching: .truePredicate, zone: zone)
/// ```
public struct ZoneID: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The zone's name. Any non-empty string: zone names reach SQL only as bound values.
    public var zoneName: String

    /// Creates a zone identifier from a name.
    public init(zoneName: String) {
        self.zoneName = zoneName
    }

    /// The zone every store has, named `_defaultZone` as in CloudKit.
    public static let `default` = ZoneID(zoneName: Reference.defaultZoneName)

    public var description: String { zoneName }

    /// Whether two identifiers name the same zone: their names are the same bytes (zone names are
    /// identifiers, as record names are: see ``RecordID/==(_:_:)``).
    public static func == (left: ZoneID, right: ZoneID) -> Bool {
        NameBytes(left.zoneName) == NameBytes(right.zoneName)
    }

    /// Hashes the name's bytes, as ``==(_:_:)`` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(NameBytes(zoneName))
    }
}
