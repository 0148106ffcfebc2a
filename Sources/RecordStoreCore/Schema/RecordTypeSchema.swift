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
    /// The index types of the fields the type gains just in time (development mode, an import
    /// without a schema). Record types of stores made before this setting existed read as
    /// ``IndexPolicy/all``, what those stores built.
    public var justInTimeIndexes: IndexPolicy

    /// Creates a record type description.
    ///
    /// ```swift
    /// RecordTypeSchema(name: "City", fields: [FieldSchema(name: "name", type: .string)], justInTimeIndexes: .all)
    /// ```
    public init(name: String, fields: [FieldSchema] = [], justInTimeIndexes: IndexPolicy = .automatic) {
        self.name = name
        self.fields = fields
        self.justInTimeIndexes = justInTimeIndexes
    }

    private enum CodingKeys: String, CodingKey {
        case name, fields, justInTimeIndexes
    }

    /// Decodes a stored record type; one stored before ``justInTimeIndexes`` existed gets ``IndexPolicy/all``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        fields = try container.decode([FieldSchema].self, forKey: .fields)
        justInTimeIndexes = try container.decodeIfPresent(IndexPolicy.self, forKey: .justInTimeIndexes) ?? .all
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
