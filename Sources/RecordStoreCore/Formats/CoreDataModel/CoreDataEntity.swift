/// An entity of a Core Data model: its attributes, relationships, fetch indexes, uniqueness
/// constraints and fetched properties, as declared (inherited ones are on the parent entity;
/// ``CoreDataModel/attributes(of:)`` gathers them).
///
/// ```swift
/// let employee = model.entity(named: "Employee")
/// employee?.parentEntity                    // "Person"
/// employee?.attributes.map(\.name)          // ["hireDate", "salary", …]
/// ```
public struct CoreDataEntity: Sendable, Hashable, Codable {
    /// The entity's name.
    public var name: String
    /// The class that represents it in the app (`representedClassName`), if named.
    public var representedClassName: String?
    /// The entity it inherits from (`parentEntity`), if any.
    public var parentEntity: String?
    /// Whether it is abstract: it has no objects of its own, only its sub-entities do.
    public var isAbstract: Bool
    /// The attributes it declares, in the order written.
    public var attributes: [CoreDataAttribute]
    /// The relationships it declares, in the order written.
    public var relationships: [CoreDataRelationship]
    /// Its fetch indexes, in the order written.
    public var fetchIndexes: [CoreDataFetchIndex]
    /// Its uniqueness constraints: each a list of property names whose values together are
    /// unique. Kept as written; the store does not enforce them.
    public var uniquenessConstraints: [[String]]
    /// Its fetched properties, in the order written.
    public var fetchedProperties: [CoreDataFetchedProperty]
    /// The name it had in an earlier version of the model (`renamingIdentifier`), if set: a
    /// migration renames that version's record type to this entity's name.
    public var renamingIdentifier: String?

    /// Creates an entity.
    ///
    /// ```swift
    /// CoreDataEntity(name: "Tag", attributes: [CoreDataAttribute(name: "label", type: .string)])
    /// ```
    public init(
        name: String, representedClassName: String? = nil, parentEntity: String? = nil, isAbstract: Bool = false,
        attributes: [CoreDataAttribute] = [], relationships: [CoreDataRelationship] = [], fetchIndexes: [CoreDataFetchIndex] = [],
        uniquenessConstraints: [[String]] = [], fetchedProperties: [CoreDataFetchedProperty] = [], renamingIdentifier: String? = nil
    ) {
        self.renamingIdentifier = renamingIdentifier
        self.name = name
        self.representedClassName = representedClassName
        self.parentEntity = parentEntity
        self.isAbstract = isAbstract
        self.attributes = attributes
        self.relationships = relationships
        self.fetchIndexes = fetchIndexes
        self.uniquenessConstraints = uniquenessConstraints
        self.fetchedProperties = fetchedProperties
    }

    /// The attribute it declares with this name, if any.
    public func attribute(named name: String) -> CoreDataAttribute? {
        attributes.first { $0.name == name }
    }

    /// The relationship it declares with this name, if any.
    public func relationship(named name: String) -> CoreDataRelationship? {
        relationships.first { $0.name == name }
    }
}
