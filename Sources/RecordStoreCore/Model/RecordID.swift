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
}
