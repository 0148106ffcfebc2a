import PredicateLanguage

/// The admission of a record's parent (``Record/parent``), kept in the reserved field
/// ``Record/parentFieldName``: a reference to a record of the same zone. Like the reserved field
/// of ``DeleteSelfReferences``, it appears in a record type's schema the first time one of its
/// records has a parent, in development and production alike (it is a system field, as
/// CloudKit's `parent` is).
///
/// ```swift
/// try ParentReference.check(.reference(Reference(recordName: "trip", zoneName: "Trips")), of: stop)
/// ```
enum ParentReference {
    /// The schema of the reserved field: a reference without an index (a share's permission is
    /// resolved from a record up to its root, one lookup by identifier a step).
    static var fieldSchema: FieldSchema {
        FieldSchema(name: Record.parentFieldName, type: .reference, isQueryable: false, isSortable: false)
    }

    /// Checks a record's parent: a reference to another record of the record's own zone.
    static func check(_ value: Value, of record: Record) throws(RecordStoreError) {
        func refuse(_ reason: String) -> RecordStoreError {
            .unsupportedValue(field: Record.parentFieldName, recordType: record.recordType, reason: reason)
        }
        guard case .reference(let reference) = value else {
            throw refuse("it holds the record's parent (a reference), not \(value.typeName)")
        }
        guard ZoneID(zoneName: reference.zoneName) == record.recordID.zoneID else {
            throw refuse("a record's parent is in the record's own zone '\(record.recordID.zoneID.zoneName)', not in '\(reference.zoneName)'")
        }
        guard NameBytes(reference.recordName) != NameBytes(record.recordID.recordName) else {
            throw refuse("a record is not its own parent")
        }
    }
}
