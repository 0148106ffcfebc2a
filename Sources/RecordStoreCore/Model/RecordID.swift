import PredicateLanguage

/// The identity of a record: its name, unique within its zone.
///
/// ```swift
/// let paris = RecordID(recordName: "2988507")                    // default zone
/// let archived = RecordID(recordName: "2988507", zoneID: ZoneID(zoneName: "Archive"))
/// ```
public struct RecordID: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The record's name, unique within its zone.
    public var recordName: String
    /// The zone that holds the record.
    public var zoneID: ZoneID

    /// Creates a record identifier.
    public init(recordName: String, zoneID: ZoneID = .default) {
        self.recordName = recordName
        self.zoneID = zoneID
    }

    /// A reference value pointing at this record, usable in predicates (`owner == %@`).
    public var reference: Reference {
        Reference(recordName: recordName, zoneName: zoneID.zoneName)
    }

    public var description: String {
        zoneID == .default ? recordName : "\(zoneID.zoneName)/\(recordName)"
    }

    /// Whether two identifiers name the same record: their names and zones are the same bytes.
    /// A record's name is an identifier, not text to compare: `"Sa\u{0303}o"` and `"São"` name two
    /// records, as they do in every engine's storage (Swift's `String` equality would merge them).
    public static func == (left: RecordID, right: RecordID) -> Bool {
        NameBytes(left.recordName) == NameBytes(right.recordName) && left.zoneID == right.zoneID
    }

    /// Hashes the name's bytes and the zone, as ``==(_:_:)`` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(NameBytes(recordName))
        hasher.combine(zoneID)
    }
}
