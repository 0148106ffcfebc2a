@_exported import QueryBuilder

// The macro is part of the Macros trait; without it this module is the builder alone.
#if Macros
/// Writes a model struct's field table and its `Queryable` conformance: `enum Attribute`, one
/// case per stored property, and `attributeKeyPaths`, each property's key path. Key paths then
/// name fields everywhere: `#Predicate`, `SortDescriptor`, `where(\.field, ...)`, `select(\.field)`.
///
/// This module is apart from `QueryBuilder` so that only users of the macro build swift-syntax.
///
/// ```swift
/// import QueryModel
///
/// @QueryModel
/// struct Item: RecordModel, Identifiable {
///     var id: String
///     var name: String
///     var quantity: Int
/// }
/// let big = try context.fetch(FetchDescriptor<Item>(predicate: #Predicate { $0.quantity > 10 }))
/// Item.Attribute.allCases   // [.id, .name, .quantity]
/// ```
@attached(member, names: named(Attribute), named(attributeKeyPaths))
@attached(extension, conformances: Queryable)
public macro QueryModel() = #externalMacro(module: "QueryModelMacros", type: "QueryModelMacro")
#endif
