/// A relationship of a Core Data entity (`<relationship name="department" maxCount="1"
/// deletionRule="Nullify" destinationEntity="Department" inverseName="employees" …/>`).
///
/// ``CoreDataModel/relationshipSchema(_:of:)`` maps it to the store's relationship, with its
/// counts and `optional` as rules that saves follow.
///
/// ```swift
/// let employees = model.entity(named: "Department")?.relationship(named: "employees")
/// employees?.isToMany       // true
/// employees?.deletionRule   // .cascade
/// ```
public struct CoreDataRelationship: Sendable, Hashable, Codable {
    /// The relationship's name.
    public var name: String
    /// The entity it leads to.
    public var destinationEntity: String
    /// Whether it holds many objects (`toMany="YES"`).
    public var isToMany: Bool
    /// Whether a to-many relationship keeps its objects in order (`ordered="YES"`).
    public var isOrdered: Bool
    /// The name of the inverse relationship on the destination, if any.
    public var inverseName: String?
    /// The entity declaring the inverse (the destination or one of its parents), if any.
    public var inverseEntity: String?
    /// What deleting the source does to the destinations.
    public var deletionRule: CoreDataDeletionRule
    /// The least number of objects (`minCount`), if set.
    public var minCount: Int?
    /// The greatest number of objects (`maxCount`; `1` for a to-one), if set.
    public var maxCount: Int?
    /// Whether it may be empty or nil (`optional="YES"`).
    public var isOptional: Bool
    /// Whether it is transient: never stored.
    public var isTransient: Bool
    /// The name it had in an earlier version of the model (`renamingIdentifier`), if set: a
    /// migration renames that version's relationship (and its field) to this name.
    public var renamingIdentifier: String?

    /// Creates a relationship.
    ///
    /// ```swift
    /// CoreDataRelationship(name: "department", destinationEntity: "Department", inverseName: "employees",
    ///                      inverseEntity: "Department", deletionRule: .nullify, maxCount: 1)
    /// ```
    public init(
        name: String, destinationEntity: String, isToMany: Bool = false, isOrdered: Bool = false,
        inverseName: String? = nil, inverseEntity: String? = nil, deletionRule: CoreDataDeletionRule = .nullify,
        minCount: Int? = nil, maxCount: Int? = nil, isOptional: Bool = true, isTransient: Bool = false, renamingIdentifier: String? = nil
    ) {
        self.renamingIdentifier = renamingIdentifier
        self.name = name
        self.destinationEntity = destinationEntity
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.inverseName = inverseName
        self.inverseEntity = inverseEntity
        self.deletionRule = deletionRule
        self.minCount = minCount
        self.maxCount = maxCount
        self.isOptional = isOptional
        self.isTransient = isTransient
    }
}
