import RecordStore

/// A model that declares its relationships, as a Core Data entity does: to-ones (a
/// ``RecordReference`` property), to-manys (the inverse of another model's reference, stored
/// nowhere on this model) and many-to-many reference lists, each with its deletion rule.
/// `ModelContext.defineRelationships(of:)` puts them in the store's schema; from then on
/// predicates walk them (`ANY orders.total > 100`, `orders.@count > 5`,
/// `#Predicate<Order> { $0.customer.name == "Alice" }`), deletions follow their rules, and
/// queries prefetch them (``Query/prefetching(_:)``).
///
/// ```swift
/// struct Customer: RelationshipModel, Identifiable {
///     var id: String
///     var name: String
///     static var relationships: [RelationshipSchema] {
///         [.toMany("orders", of: Order.self, inverse: "customer", deletionRule: .cascade)]
///     }
/// }
/// struct Order: RelationshipModel, Identifiable {
///     var id: String
///     var total: Int
///     var customer: RecordReference<Customer>?
///     static var relationships: [RelationshipSchema] { [.toOne("customer", to: Customer.self)] }
/// }
/// try context.defineRelationships(of: [Customer.self, Order.self])
/// let big = try Customer.query(in: context).where("ANY orders.total > 100").all()
/// ```
public protocol RelationshipModel: RecordModel {
    /// The model's relationships, by name.
    ///
    /// ```swift
    /// static var relationships: [RelationshipSchema] { [.toOne("customer", to: Customer.self)] }
    /// ```
    static var relationships: [RelationshipSchema] { get }
}

extension RelationshipSchema {
    /// A to-one relationship to a model, stored in the reference field of its name.
    ///
    /// ```swift
    /// RelationshipSchema.toOne("customer", to: Customer.self)
    /// ```
    public static func toOne<Destination: RecordModel>(
        _ name: String, to destination: Destination.Type, deletionRule: DeletionRule = .nullify
    ) -> RelationshipSchema {
        toOne(name, destination: Destination.recordType, deletionRule: deletionRule)
    }

    /// A to-many relationship: the models of a type whose reference field `inverse` references this one.
    ///
    /// ```swift
    /// RelationshipSchema.toMany("orders", of: Order.self, inverse: "customer", deletionRule: .cascade)
    /// ```
    public static func toMany<Destination: RecordModel>(
        _ name: String, of destination: Destination.Type, inverse: String, deletionRule: DeletionRule = .nullify
    ) -> RelationshipSchema {
        toMany(name, destination: Destination.recordType, inverse: inverse, deletionRule: deletionRule)
    }

    /// A many-to-many relationship stored as a list of references (a `[RecordReference<Tag>]` property).
    ///
    /// ```swift
    /// RelationshipSchema.referenceList("tags", of: Tag.self)
    /// ```
    public static func referenceList<Destination: RecordModel>(
        _ name: String, of destination: Destination.Type, deletionRule: DeletionRule = .nullify
    ) -> RelationshipSchema {
        referenceList(name, destination: Destination.recordType, deletionRule: deletionRule)
    }
}

extension ModelContext {
    /// Puts the relationships of models in the store's schema, all types together (so types
    /// that name each other can be defined): each type keeps its fields and index policy, and
    /// gains the relationships' reference fields. Defining the same relationships again changes
    /// nothing. An inverse that is not a reference leading back is an error naming it.
    ///
    /// ```swift
    /// try context.defineRelationships(of: [Customer.self, Order.self])
    /// ```
    public func defineRelationships(of models: [any RelationshipModel.Type]) throws {
        try synchronously { try await self.defineRelationships(of: models) }
    }

    /// Puts the relationships of models in the store's schema (async); see the synchronous form.
    ///
    /// ```swift
    /// try await context.defineRelationships(of: [Customer.self, Order.self])
    /// ```
    public func defineRelationships(of models: [any RelationshipModel.Type]) async throws {
        var types: [RecordTypeSchema] = []
        for model in models {
            let existing = try await store.schema(for: model.recordType)
            types.append(RecordTypeSchema(
                name: model.recordType, justInTimeIndexes: existing?.justInTimeIndexes ?? .automatic,
                relationships: model.relationships))
        }
        try await store.define(types)
    }
}
