/// A record type: its name and fields.
///
/// ```swift
/// let city = try store.schema(for: "City")
/// city?.field(named: "population")?.type   // .int64
/// ```
public struct RecordTypeSchema: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The record type's name.
    public var name: String
    /// The fields, in the order they were added.
    public var fields: [FieldSchema]

    /// Creates a record type description.
    public init(name: String, fields: [FieldSchema] = []) {
        self.name = name
        self.fields = fields
    }

    /// The field with this name, if any.
    public func field(named name: String) -> FieldSchema? {
        fields.first { $0.name == name }
    }

    /// The names of the searchable fields, in order.
    public var searchableFieldNames: [String] {
        fields.filter(\.isSearchable).map(\.name)
    }

    /// One line per field: `population  int64  queryable sortable`.
    public var description: String {
        var lines = ["\(name)"]
        let width = fields.map(\.name.count).max() ?? 0
        for field in fields {
            let padded = field.name.padding(toLength: width, withPad: " ", startingAt: 0)
            lines.append("  \(padded)  \(field.type)  \(field.indexDescription)")
        }
        return lines.joined(separator: "\n")
    }
}
