import PredicateLanguage

/// What a query walks through relationships: a tree of relationship names, from the queried
/// type outward, saying at each step whether the records must be read (a key path goes on past
/// the relationship: `department.name`) or only the references listed (an inverse to-many used as
/// a collection: `employees.@count`, `ANY employees == %@`).
///
/// ``RelationshipWalkAnalyzer`` makes it from a query and rewrites the query's key paths so that
/// each relationship a path walks through reads its records under the relationship's
/// ``resolvedKey(_:)``: `department.name` becomes `department#.name`. ``RelatedRecordGraph``
/// reads what the tree asks for and gives each record those keys
/// (``RecordObject/relatedValues``), so the evaluator itself walks the graph: `department#` is the
/// department as an object, `employees#` the employees as a list of objects, and every collection
/// operator, `ANY`, `ALL`, `NONE` and `SUBQUERY` keeps its meaning.
///
/// ```swift
/// // Employee: department.name == "Sales" AND department.manager.name == "Ada"
/// walk.root.children["department"]?.readsRecords                          // true
/// walk.root.children["department"]?.children["manager"]?.readsRecords     // true
/// ```
@_spi(StorageEngine) public struct RelationshipWalk: Sendable, Hashable {
    /// One step of the walk: a relationship (or reference field) of the records at its level.
    @_spi(StorageEngine) public struct Step: Sendable, Hashable {
        /// Whether the records the relationship reaches are read (under ``resolvedKey(_:)``).
        @_spi(StorageEngine) public var readsRecords = false
        /// Whether an inverse to-many is listed as references under its own name.
        @_spi(StorageEngine) public var listsReferences = false
        /// The steps from the records this one reaches, by relationship name.
        @_spi(StorageEngine) public var children: [String: Step] = [:]

        /// An empty step.
        @_spi(StorageEngine) public init() {}
    }

    /// The steps from the queried records, by relationship name.
    @_spi(StorageEngine) public var root = Step()

    /// An empty walk.
    @_spi(StorageEngine) public init() {}

    /// Whether the query walks nothing.
    @_spi(StorageEngine) public var isEmpty: Bool { root.children.isEmpty }

    /// The key under which a relationship's records are read: its name and `#`, which no field
    /// name holds (field names are letters, digits and `_`).
    ///
    /// ```swift
    /// RelationshipWalk.resolvedKey("department")   // "department#"
    /// ```
    @_spi(StorageEngine) public static func resolvedKey(_ relationship: String) -> String { relationship + "#" }

    /// Whether a key is a ``resolvedKey(_:)``.
    @_spi(StorageEngine) public static func isResolvedKey(_ key: String) -> Bool { key.hasSuffix("#") }
}
