// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

/// An index type as the schema routes name it.
///
/// ```swift
/// SchemaIndexType.sortable.rawValue                       // "sortable"
/// SchemaIndexType.sortable.isSet(on: FieldSchema(name: "name", type: .string))   // true
/// ```
enum SchemaIndexType: String, Decodable, CaseIterable {
    /// Equality, `IN`, prefixes.
    case queryable
    /// Ranges and sorts.
    case sortable
    /// Full text.
    case searchable

    /// The name the schema language gives it: `QUERYABLE`, `SORTABLE`, `SEARCHABLE`.
    var schemaLanguageName: String { rawValue.uppercased() }

    /// Whether a field has this index type.
    func isSet(on field: FieldSchema) -> Bool {
        switch self {
        case .queryable: field.isQueryable
        case .sortable: field.isSortable
        case .searchable: field.isSearchable
        }
    }

    /// Gives a field this index type, or takes it away.
    func set(_ value: Bool, on field: inout FieldSchema) {
        switch self {
        case .queryable: field.isQueryable = value
        case .sortable: field.isSortable = value
        case .searchable: field.isSearchable = value
        }
    }
}
#endif
