/// One field of a record type: its type and its indexes.
///
/// ```swift
/// FieldSchema(name: "population", type: .int64, isQueryable: true, isSortable: true)
/// FieldSchema(name: "name", type: .string, isSearchable: true)
/// ```
public struct FieldSchema: Sendable, Hashable, Codable {
    /// The field's name.
    public var name: String
    /// The field's type.
    public var type: FieldType
    /// Whether predicates may test the field (an index for equality and ranges).
    public var isQueryable: Bool
    /// Whether results may be sorted by the field.
    public var isSortable: Bool
    /// Whether the field feeds full-text search (`self CONTAINS "…"`); string fields only.
    public var isSearchable: Bool
    /// The rules its values follow (required, default, range, length, pattern), if any: a
    /// Core Data model's attribute settings. A save that breaks them fails as a whole.
    public var validation: FieldValidation?
    /// Whether the type was guessed from empty lists only, so the first non-empty list may still set it.
    package var isProvisional: Bool = false

    /// Creates a field description.
    ///
    /// ```swift
    /// FieldSchema(name: "age", type: .int64, validation: FieldValidation(minimumValue: 16, maximumValue: 99))
    /// ```
    public init(
        name: String, type: FieldType, isQueryable: Bool = true, isSortable: Bool = true, isSearchable: Bool = false,
        validation: FieldValidation? = nil
    ) {
        self.name = name
        self.validation = validation?.isEmpty == true ? nil : validation
        self.type = type
        self.isQueryable = isQueryable
        self.isSortable = isSortable && type.isSortable
        self.isSearchable = isSearchable && type == .string
    }

    /// Whether the field has an index of its own (queryable or sortable): SQL engines then keep
    /// its ``IndexPolicy`` structures (an index, folded forms, list members, a spatial index).
    public var isIndexed: Bool { isQueryable || isSortable }

    /// The index flags as they print: `queryable sortable searchable`.
    public var indexDescription: String {
        [isQueryable ? "queryable" : nil, isSortable ? "sortable" : nil, isSearchable ? "searchable" : nil]
            .compactMap { $0 }.joined(separator: " ")
    }
}
