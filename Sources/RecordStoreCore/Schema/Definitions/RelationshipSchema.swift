/// A relationship of a record type: a named way from its records to records of another type,
/// as Core Data's relationships are. Predicates and sorts walk it with key paths
/// (`department.name == "Sales"`, `ANY employees.salary > 100000`, `employees.@count > 5`).
///
/// How it is stored (``Kind``):
/// - a to-one is the `REFERENCE` field of the relationship's name, which holds the referenced
///   record's ID;
/// - a to-many is either the inverse of a reference on the destination (declared by name, as
///   Core Data's `inverseName`), stored nowhere on this type, or a `LIST<REFERENCE>` field of the
///   relationship's name (many-to-many).
///
/// A to-many found through an inverse reaches the destination's records in the same zone whose
/// inverse field references the record (CloudKit keeps references within a zone).
///
/// ```swift
/// let employee = RecordTypeSchema(name: "Employee", fields: [FieldSchema(name: "name", type: .string)], relationships: [
///     .toOne("department", destination: "Department"),
/// ])
/// let department = RecordTypeSchema(name: "Department", fields: [FieldSchema(name: "name", type: .string)], relationships: [
///     .toMany("employees", destination: "Employee", inverse: "department", deletionRule: .cascade),
/// ])
/// try store.define([department, employee])
/// ```
public struct RelationshipSchema: Sendable, Hashable, Codable {
    /// How a relationship is stored.
    public enum Kind: Sendable, Hashable, Codable {
        /// One record, referenced by the `REFERENCE` field of the relationship's name.
        case toOne
        /// The destination's records whose field `inverse` (a `REFERENCE` or a
        /// `LIST<REFERENCE>`) references the record; nothing is stored on this type.
        case toMany(inverse: String)
        /// The records referenced by the `LIST<REFERENCE>` field of the relationship's name, in
        /// its order (many-to-many).
        case referenceList
    }

    /// The relationship's name: the key paths' component, and the field of a to-one or a reference list.
    public var name: String
    /// The record type it leads to.
    public var destination: String
    /// How it is stored.
    public var kind: Kind
    /// What deleting a record does to the records this relationship reaches.
    public var deletionRule: DeletionRule
    /// Whether a to-many keeps its records in order (Core Data's `ordered`): a reference list's
    /// order; an inverse to-many reads in record-name order either way.
    public var isOrdered: Bool
    /// The least number of records a to-many holds (Core Data's `minCount`): a save that leaves
    /// fewer fails (``ValidationErrorCode/relationshipLacksMinimumCount``).
    public var minimumCount: Int?
    /// The greatest number of records a to-many holds (Core Data's `maxCount`): a save that
    /// leaves more fails (``ValidationErrorCode/relationshipExceedsMaximumCount``).
    public var maximumCount: Int?
    /// Whether it must hold a record (Core Data's `optional="NO"`): a to-one that is nil fails
    /// with ``ValidationErrorCode/missingMandatoryProperty``, an empty to-many with
    /// ``ValidationErrorCode/relationshipLacksMinimumCount``.
    public var isRequired: Bool

    /// A relationship.
    ///
    /// ```swift
    /// RelationshipSchema(name: "tags", destination: "Tag", kind: .referenceList, deletionRule: .nullify)
    /// ```
    public init(
        name: String, destination: String, kind: Kind, deletionRule: DeletionRule = .nullify, isOrdered: Bool = false,
        minimumCount: Int? = nil, maximumCount: Int? = nil, isRequired: Bool = false
    ) {
        self.isRequired = isRequired
        self.name = name
        self.destination = destination
        self.kind = kind
        self.deletionRule = deletionRule
        self.isOrdered = isOrdered
        self.minimumCount = minimumCount
        self.maximumCount = maximumCount
    }

    /// A to-one relationship, stored in the `REFERENCE` field of its name.
    ///
    /// ```swift
    /// RelationshipSchema.toOne("department", destination: "Department")
    /// ```
    public static func toOne(_ name: String, destination: String, deletionRule: DeletionRule = .nullify) -> RelationshipSchema {
        RelationshipSchema(name: name, destination: destination, kind: .toOne, deletionRule: deletionRule)
    }

    /// A to-many relationship: the inverse of the destination's reference field `inverse`.
    ///
    /// ```swift
    /// RelationshipSchema.toMany("employees", destination: "Employee", inverse: "department", deletionRule: .deny)
    /// ```
    public static func toMany(_ name: String, destination: String, inverse: String, deletionRule: DeletionRule = .nullify) -> RelationshipSchema {
        RelationshipSchema(name: name, destination: destination, kind: .toMany(inverse: inverse), deletionRule: deletionRule)
    }

    /// A to-many relationship stored in the `LIST<REFERENCE>` field of its name (many-to-many).
    ///
    /// ```swift
    /// RelationshipSchema.referenceList("projects", destination: "Project")
    /// ```
    public static func referenceList(
        _ name: String, destination: String, deletionRule: DeletionRule = .nullify, isOrdered: Bool = true
    ) -> RelationshipSchema {
        RelationshipSchema(name: name, destination: destination, kind: .referenceList, deletionRule: deletionRule, isOrdered: isOrdered)
    }

    private enum CodingKeys: String, CodingKey {
        case name, destination, kind, deletionRule, isOrdered, minimumCount, maximumCount, isRequired
    }

    /// Decodes a stored relationship; one stored before ``isRequired`` existed is optional.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        destination = try container.decode(String.self, forKey: .destination)
        kind = try container.decode(Kind.self, forKey: .kind)
        deletionRule = try container.decode(DeletionRule.self, forKey: .deletionRule)
        isOrdered = try container.decode(Bool.self, forKey: .isOrdered)
        minimumCount = try container.decodeIfPresent(Int.self, forKey: .minimumCount)
        maximumCount = try container.decodeIfPresent(Int.self, forKey: .maximumCount)
        isRequired = try container.decodeIfPresent(Bool.self, forKey: .isRequired) ?? false
    }

    /// Encodes the relationship; an optional one is stored exactly as before ``isRequired`` existed.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(destination, forKey: .destination)
        try container.encode(kind, forKey: .kind)
        try container.encode(deletionRule, forKey: .deletionRule)
        try container.encode(isOrdered, forKey: .isOrdered)
        try container.encodeIfPresent(minimumCount, forKey: .minimumCount)
        try container.encodeIfPresent(maximumCount, forKey: .maximumCount)
        if isRequired { try container.encode(isRequired, forKey: .isRequired) }
    }

    /// Whether it reaches many records.
    public var isToMany: Bool { kind != .toOne }

    /// The field of this type that stores it: its own name for a to-one or a reference list,
    /// nil for an inverse to-many.
    public var storedField: String? {
        if case .toMany = kind { return nil }
        return name
    }

    /// The field type of ``storedField``: `REFERENCE` or `LIST<REFERENCE>`.
    public var storedFieldType: FieldType? {
        switch kind {
        case .toOne: .reference
        case .referenceList: .list(.reference)
        case .toMany: nil
        }
    }
}

extension RelationshipSchema {
    /// How it is stored, as the schema prints it: `to-one`, `to-many, inverse of department`,
    /// `to-many, reference list`.
    public var kindDescription: String {
        switch kind {
        case .toOne: "to-one"
        case .toMany(let inverse): "to-many, inverse of \(inverse)"
        case .referenceList: "to-many, reference list"
        }
    }
}
