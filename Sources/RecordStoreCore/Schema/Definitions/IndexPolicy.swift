/// Which index types a record type gives the fields it gains just in time: on the first save
/// of a field in development mode, or by an import without a schema. Declared fields
/// (``Store/define(_:progress:)-5x8qf``, a `.ckdb` file) have exactly the index types they declare.
///
/// An index type decides what the storage engines build for a field:
///
/// | index type | what it serves | what SQL engines build |
/// |---|---|---|
/// | `QUERYABLE` | `==`, `!=`, `IN`, `BEGINSWITH`, `LIKE`, `[c]`/`[cd]` comparisons; `ANY`/`CONTAINS`/`IN` on lists; distances | an index of the field; strings also their `[c]` and `[cd]` folded forms, indexed; lists their members (folded too), indexed; locations a spatial index |
/// | `SORTABLE` | sorts, ranges (`<`, `>`, `BETWEEN`) | an index of the field; strings also the case-folded form and the three localized sort keys, indexed |
/// | `SEARCHABLE` | full-text search (`self CONTAINS "word"`) and token searches of the field (`tokenize:using:`), strings only | the field's words in the full-text index |
///
/// A query on a field without the index it needs is answered exactly, by reading the rows
/// (`query find --explain` shows the scan), in development mode; in production mode it is
/// refused, naming the field and the index type (``RecordStoreError/notQueryable(field:recordType:)``).
///
/// ```swift
/// IndexPolicy.automatic.field(named: "name", type: .string).indexDescription       // "queryable searchable"
/// IndexPolicy.automatic.field(named: "population", type: .int64).indexDescription  // "queryable sortable"
/// IndexPolicy.automatic.field(named: "tags", type: .list(.string)).indexDescription // ""
/// IndexPolicy.all.field(named: "name", type: .string).indexDescription             // "queryable sortable searchable"
/// ```
public enum IndexPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// The indexes most queries need, at a third of the size of ``all``: strings are queryable
    /// (with their folded forms) and searchable, but get no localized sort keys; numbers, dates
    /// and booleans are queryable and sortable (one index serves both); locations and
    /// references are queryable; lists and bytes get no index. Declare a field `SORTABLE` for
    /// localized sorts, or a list `QUERYABLE` for fast `ANY` tests.
    case automatic
    /// Every index type a field's type can have, as stores made before index types were
    /// declared have: strings queryable, sortable and searchable; lists queryable.
    case all

    /// The field a value of `type` creates under this policy.
    public func field(named name: String, type: FieldType) -> FieldSchema {
        switch self {
        case .all:
            return FieldSchema(name: name, type: type, isQueryable: true, isSortable: type.isSortable, isSearchable: type == .string)
        case .automatic:
            switch type {
            case .string:
                return FieldSchema(name: name, type: type, isQueryable: true, isSortable: false, isSearchable: true)
            case .int64, .double, .bool, .date:
                return FieldSchema(name: name, type: type, isQueryable: true, isSortable: true)
            case .location, .reference:
                return FieldSchema(name: name, type: type, isQueryable: true, isSortable: false)
            case .bytes, .list:
                return FieldSchema(name: name, type: type, isQueryable: false, isSortable: false)
            }
        }
    }
}
