/// The names of the tables, columns and indexes that store a record type. Type and
/// field names are checked identifiers (letters, digits, `_`), and the layout's own
/// names add `$`, which no type or field name holds, so they never collide.
enum TableLayout {
    /// The zones table.
    static let zonesTable = "$zones"
    /// The record-type schemas table.
    static let schemaTable = "$schema"
    /// Which type holds each record: (zone, record name) -> type, change tag, row.
    static let registryTable = "$records"

    /// Metadata columns of a record table.
    static let zoneColumn = "$zone"
    static let recordNameColumn = "$recordName"
    static let creationDateColumn = "$creationDate"
    static let modificationDateColumn = "$modificationDate"
    static let changeTagColumn = "$recordChangeTag"

    /// The table of a record type.
    static func recordTable(_ recordType: String) -> String { recordType }
    /// The list members of a record type: (record, field, position, value).
    static func listTable(_ recordType: String) -> String { "\(recordType)$list" }
    /// The FTS table of a record type.
    static func fullTextTable(_ recordType: String) -> String { "\(recordType)$fts" }
    /// The R*Tree of a location field.
    static func locationIndexTable(_ recordType: String, field: String) -> String { "\(recordType)$\(field)$rtree" }
    /// The latitude column of a location field.
    static func latitudeColumn(_ field: String) -> String { "\(field)$latitude" }
    /// The longitude column of a location field.
    static func longitudeColumn(_ field: String) -> String { "\(field)$longitude" }
    /// The index of a field. The `$index` suffix keeps it apart from the type's other
    /// objects: `T$list` and `T$fts` would name the list and FTS tables for fields called
    /// `list` and `fts` (SQLite tables and indexes share one namespace).
    static func fieldIndex(_ recordType: String, field: String) -> String { "\(recordType)$\(field)$index" }

    /// The column of a metadata field.
    static func column(_ metadata: MetadataField) -> String {
        switch metadata {
        case .recordName: recordNameColumn
        case .creationDate: creationDateColumn
        case .modificationDate: modificationDateColumn
        case .recordChangeTag: changeTagColumn
        }
    }
}
