import PredicateLanguage

extension Record {
    /// The reserved field holding a record's parent (``parent``): `___parent`, a `REFERENCE`.
    /// Field names start with a letter, so no field of an app's schema can take it; a schema
    /// export leaves it out, as it leaves out CloudKit's other `___` fields.
    public static let parentFieldName = "___parent"

    /// The record's parent (`CKRecord.parent`): the record it belongs to in a hierarchy, in the
    /// same zone. A share of a record shares every record whose parent chain reaches it
    /// (``Store/sharePermission(of:for:)``); the parent has no other effect (deleting the parent
    /// leaves the child).
    ///
    /// The store keeps it in the reserved field ``parentFieldName``, which a save admits in any
    /// schema mode; a parent in another zone is refused.
    ///
    /// ```swift
    /// var stop = Record(recordType: "Stop", recordID: RecordID(recordName: "louvre", zoneID: trips))
    /// stop.parent = RecordID(recordName: "paris-trip", zoneID: trips)
    /// stop.parent?.recordName   // "paris-trip"
    /// ```
    public var parent: RecordID? {
        get {
            guard case .reference(let reference)? = fields[Self.parentFieldName] else { return nil }
            return RecordID(recordName: reference.recordName, zoneID: ZoneID(zoneName: reference.zoneName))
        }
        set {
            fields[Self.parentFieldName] = newValue.map { Value.reference($0.reference) }
        }
    }
}
