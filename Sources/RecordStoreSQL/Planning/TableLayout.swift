@_spi(StorageEngine) import RecordStoreCore
/// The names of the tables, columns and indexes every SQL engine stores a record type in.
/// Type and field names are checked identifiers (letters, digits, `_`), and the layout's own
/// names add `$`, which no type or field name holds, so they never collide. An engine's own
/// side structures (SQLite's FTS5 and R*Tree tables) are named in its folder.
@_spi(StorageEngine) public enum TableLayout {
    /// The zones table.
    @_spi(StorageEngine) public static let zonesTable = "$zones"
    /// The record-type schemas table.
    @_spi(StorageEngine) public static let schemaTable = "$schema"
    /// Which type holds each record: (zone, record name) -> type.
    @_spi(StorageEngine) public static let registryTable = "$records"
    /// The change history's one row: the store's last change position and the floor below
    /// which pruned tombstones left it incomplete. The registry's and the zones' `position`
    /// columns hold the position of each record's and zone's last change.
    @_spi(StorageEngine) public static let historyTable = "$history"
    /// Deleted records: (zone, record name) -> type, position, deletion date.
    @_spi(StorageEngine) public static let tombstonesTable = "$tombstones"
    /// Deleted zones: name -> position, deletion date.
    @_spi(StorageEngine) public static let deletedZonesTable = "$deletedZones"

    /// Metadata columns of a record table.
    @_spi(StorageEngine) public static let zoneColumn = "$zone"
    @_spi(StorageEngine) public static let recordNameColumn = "$recordName"
    @_spi(StorageEngine) public static let creationDateColumn = "$creationDate"
    @_spi(StorageEngine) public static let modificationDateColumn = "$modificationDate"
    @_spi(StorageEngine) public static let changeTagColumn = "$recordChangeTag"
    @_spi(StorageEngine) public static let creatorColumn = "$creatorUserRecordName"
    @_spi(StorageEngine) public static let lastModifierColumn = "$lastModifiedUserRecordName"
    /// The metadata columns every record table has, in the order rows are written and read
    /// (after the zone): ``RecordRowReader`` selects them in this order.
    @_spi(StorageEngine) public static let storedMetadata: [MetadataField] = [
        .recordName, .creationDate, .modificationDate, .recordChangeTag, .creatorUserRecordName, .lastModifiedUserRecordName,
    ]

    /// The zone as record tables and the registry store it (``zoneColumn``, the registry's
    /// `zone`): its name, except the default zone, stored as the empty string, which names no
    /// other zone (zone names are not empty). Most records live in the default zone, and every
    /// index of a record table starts with the zone: `_defaultZone` spelled in each row and each
    /// index entry took 39 MB of the 192 MB cities1000 store. The zones table keeps the names.
    ///
    /// ```swift
    /// TableLayout.zoneKey(.default)                        // ""
    /// TableLayout.zoneKey(ZoneID(zoneName: "Archive"))     // "Archive"
    /// ```
    @_spi(StorageEngine) public static func zoneKey(_ zone: ZoneID) -> String { zone == .default ? "" : zone.zoneName }

    /// The zone a stored ``zoneKey(_:)`` stands for.
    ///
    /// ```swift
    /// TableLayout.zone(forKey: "")   // ZoneID.default
    /// ```
    @_spi(StorageEngine) public static func zone(forKey key: String) -> ZoneID { key.isEmpty ? .default : ZoneID(zoneName: key) }

    /// The table of a record type.
    @_spi(StorageEngine) public static func recordTable(_ recordType: String) -> String { recordType }
    /// The list members of a record type: (record, field, position, value).
    @_spi(StorageEngine) public static func listTable(_ recordType: String) -> String { "\(recordType)$list" }
    /// The latitude column of a location field.
    @_spi(StorageEngine) public static func latitudeColumn(_ field: String) -> String { "\(field)$latitude" }
    /// The longitude column of a location field.
    @_spi(StorageEngine) public static func longitudeColumn(_ field: String) -> String { "\(field)$longitude" }
    /// A column derived from a string field (``DerivedColumn``): `name$c`, `name$localized`.
    @_spi(StorageEngine) public static func derivedColumn(_ field: String, _ derived: DerivedColumn) -> String { "\(field)$\(derived.rawValue)" }
    /// The client's spelling of a string field when it is not the NFC form the field's column
    /// holds (``StoredSpelling``): `name$raw`.
    @_spi(StorageEngine) public static func spellingColumn(_ field: String) -> String { "\(field)$raw" }
    /// The index of a derived column.
    @_spi(StorageEngine) public static func derivedIndex(_ recordType: String, field: String, _ derived: DerivedColumn) -> String {
        "\(recordType)$\(field)$\(derived.rawValue)$index"
    }
    /// The index of a field. The `$index` suffix keeps it apart from the type's other
    /// objects: `T$list` and `T$fts` would name the list and FTS tables for fields called
    /// `list` and `fts` (SQLite tables and indexes share one namespace).
    @_spi(StorageEngine) public static func fieldIndex(_ recordType: String, field: String) -> String { "\(recordType)$\(field)$index" }

    /// The index of a uniqueness constraint (``RecordTypeSchema/uniquenessConstraints``):
    /// `T$unique$a$b`, on `(zone, a, b)` (PostgreSQL's deferred unique constraint, SQLite's
    /// index for the saves' lookups).
    @_spi(StorageEngine) public static func uniqueIndex(_ recordType: String, fields: [String]) -> String {
        "\(recordType)$unique$\(fields.joined(separator: "$"))"
    }

    /// The column of a metadata field.
    @_spi(StorageEngine) public static func column(_ metadata: MetadataField) -> String {
        switch metadata {
        case .recordName: recordNameColumn
        case .creationDate: creationDateColumn
        case .modificationDate: modificationDateColumn
        case .recordChangeTag: changeTagColumn
        case .creatorUserRecordName: creatorColumn
        case .lastModifiedUserRecordName: lastModifierColumn
        }
    }
}
