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
    /// The relationships: to-ones and reference lists stored in fields of the same names (added
    /// when the type is defined), and to-manys that are inverses of the destination's references.
    public var relationships: [RelationshipSchema]
    /// The record type this one inherits from (a Core Data entity's `parentEntity`), or nil for
    /// a root type. A query on a type also returns the records of the types below it
    /// (``FetchRequest/includesSubentities``); a subtype repeats its parent's fields.
    public var parentType: String?
    /// Whether the type is abstract (a Core Data entity's `isAbstract`): it holds no records of
    /// its own (a save of one is refused), and a query on it returns its subtypes' records.
    public var isAbstract: Bool
    /// The uniqueness constraints (Core Data's `uniquenessConstraints`): each a list of field
    /// names whose values together no two records of the type in one zone may share. A record
    /// that leaves any field of a constraint empty takes no part in it, as a SQL unique index
    /// treats nulls. A save that breaks one is resolved by its ``MergePolicy``; SQLite keeps an
    /// index per constraint for the check, PostgreSQL a unique constraint checked at the commit.
    ///
    /// ```swift
    /// RecordTypeSchema(name: "Employee", fields: [email, first, last], uniquenessConstraints: [["email"], ["first", "last"]])
    /// ```
    public var uniquenessConstraints: [[String]]

    /// Creates a record type description.
    ///
    /// ```swift
    /// RecordTypeSchema(name: "City", fields: [FieldSchema(name: "name", type: .string)], justInTimeIndexes: .all)
    /// RecordTypeSchema(name: "Manager", fields: employeeFields, parentType: "Employee")
    /// ```
    public init(
        name: String, fields: [FieldSchema] = [], justInTimeIndexes: IndexPolicy = .automatic, relationships: [RelationshipSchema] = [],
        parentType: String? = nil, isAbstract: Bool = false, uniquenessConstraints: [[String]] = []
    ) {
        self.name = name
        self.fields = fields
        self.justInTimeIndexes = justInTimeIndexes
        self.relationships = relationships
        self.parentType = parentType
        self.isAbstract = isAbstract
        self.uniquenessConstraints = uniquenessConstraints
    }

    private enum CodingKeys: String, CodingKey {
        case name, fields, justInTimeIndexes, relationships, parentType, isAbstract, uniquenessConstraints
    }

    /// Decodes a stored record type; one stored before ``justInTimeIndexes`` existed gets ``IndexPolicy/all``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        fields = try container.decode([FieldSchema].self, forKey: .fields)
        justInTimeIndexes = try container.decodeIfPresent(IndexPolicy.self, forKey: .justInTimeIndexes) ?? .all
        relationships = try container.decodeIfPresent([RelationshipSchema].self, forKey: .relationships) ?? []
        parentType = try container.decodeIfPresent(String.self, forKey: .parentType)
        isAbstract = try container.decodeIfPresent(Bool.self, forKey: .isAbstract) ?? false
        uniquenessConstraints = try container.decodeIfPresent([[String]].self, forKey: .uniquenessConstraints) ?? []
    }

    /// Encodes the record type; one without relationships, parent or abstractness is stored
    /// exactly as before they existed.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(fields, forKey: .fields)
        try container.encode(justInTimeIndexes, forKey: .justInTimeIndexes)
        if !relationships.isEmpty { try container.encode(relationships, forKey: .relationships) }
        try container.encodeIfPresent(parentType, forKey: .parentType)
        if isAbstract { try container.encode(isAbstract, forKey: .isAbstract) }
        if !uniquenessConstraints.isEmpty { try container.encode(uniquenessConstraints, forKey: .uniquenessConstraints) }
    }

    /// The relationship with this name, if any.
    ///
    /// ```swift
    /// try store.schema(for: "Department")?.relationship(named: "employees")?.isToMany   // true
    /// ```
    public func relationship(named name: String) -> RelationshipSchema? {
        relationships.first { $0.name == name }
    }

    /// The field with this name, if any.
    public func field(named name: String) -> FieldSchema? {
        fields.first { $0.name == name }
    }

    /// The names of the searchable fields, in order.
    public var searchableFieldNames: [String] {
        fields.filter(\.isSearchable).map(\.name)
    }

    /// The type's name (with `: Parent` below a parent type, `  abstract` when abstract), then
    /// one line per field: `population  int64  queryable sortable`, then its rules if any
    /// (`age  int64  queryable sortable  min 16 max 99`); one per relationship; one per
    /// uniqueness constraint (`unique (first, last)`).
    public var description: String {
        // `Manager: Employee` below a parent, `Person  abstract` for an abstract type.
        var lines = [name + (parentType.map { ": \($0)" } ?? "") + (isAbstract ? "  abstract" : "")]
        let width = fields.map(\.name.count).max() ?? 0
        for field in fields {
            let padded = field.name.padding(toLength: width, withPad: " ", startingAt: 0)
            let flags = [field.indexDescription, field.validation?.ruleDescription ?? ""].filter { !$0.isEmpty }
            // A field without flags keeps the two spaces after its type, as it always printed.
            lines.append("  \(padded)  \(field.type)  \(flags.joined(separator: "  "))")
        }
        for relationship in relationships {
            let counts = [
                relationship.isRequired ? "required" : nil, relationship.minimumCount.map { "min \($0)" }, relationship.maximumCount.map { "max \($0)" },
            ].compactMap { $0 }
            let rules = counts.isEmpty ? "" : ", " + counts.joined(separator: " ")
            lines.append("  \(relationship.name) -> \(relationship.destination)  \(relationship.kindDescription), \(relationship.deletionRule)\(rules)")
        }
        for constraint in uniquenessConstraints {
            lines.append("  unique (\(constraint.joined(separator: ", ")))")
        }
        return lines.joined(separator: "\n")
    }
}
