/// A reference to a record by name and zone: the counterpart of `CKRecord.Reference`.
///
/// ```swift
/// let manager = Reference(recordName: "employee-42")
/// let predicate = try FormatPredicate(format: "employee == %@", manager)
/// ```
public struct Reference: Sendable, Hashable, CustomStringConvertible {
    /// The name of the zone every store has, as in CloudKit.
    public static let defaultZoneName = "_defaultZone"

    /// The referenced record's name.
    public var recordName: String
    /// The zone of the referenced record.
    public var zoneName: String

    /// Creates a reference to the record with this name in this zone.
    public init(recordName: String, zoneName: String = Reference.defaultZoneName) {
        self.recordName = recordName
        self.zoneName = zoneName
    }

    public var description: String {
        zoneName == Reference.defaultZoneName ? recordName : "\(zoneName)/\(recordName)"
    }
}
