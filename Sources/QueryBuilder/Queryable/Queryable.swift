import PredicateLanguage

/// A model whose fields can be named by a compiler-checked `Attribute` enum and by key paths.
///
/// The `Attribute` cases name fields (by case name, or by raw value for a `String` enum), in
/// declaration order, which is also the order of the conditions of one dictionary in the printed
/// predicate. Key paths map to attributes through the ``attributeKeyPaths`` table the type
/// declares — never by reading a key path's description.
///
/// ```swift
/// struct Item: Queryable, Identifiable {
///     var id: String
///     var name: String
///     var quantity: Int
///     var date: Date
///
///     enum Attribute: CaseIterable { case name, quantity, date }
///     static var attributeKeyPaths: [PartialKeyPath<Item>: Attribute] {
///         [\.name: .name, \.quantity: .quantity, \.date: .date]
///     }
/// }
/// try Item.query(in: context).where([.quantity: 1]).order(by: \.date).all()
/// ```
public protocol Queryable: RecordModel {
    /// The fields queries can name.
    associatedtype Attribute: Hashable, CaseIterable, Sendable

    /// The property each key path reads, as an attribute. Defaults to an empty table (no key paths).
    /// Declare it as a computed property: key paths are not `Sendable`, so a `static let` of them
    /// is not allowed in Swift 6.
    ///
    /// ```swift
    /// static var attributeKeyPaths: [PartialKeyPath<Item>: Attribute] { [\.quantity: .quantity] }
    /// ```
    static var attributeKeyPaths: [PartialKeyPath<Self>: Attribute] { get }

    /// The field name of an attribute: its raw value for a `String` enum, its case name otherwise.
    ///
    /// ```swift
    /// Item.fieldName(for: .quantity)   // "quantity"
    /// ```
    static func fieldName(for attribute: Attribute) -> String
}

extension Queryable {
    /// No key paths.
    ///
    /// ```swift
    /// Item.attributeKeyPaths   // [:]
    /// ```
    public static var attributeKeyPaths: [PartialKeyPath<Self>: Attribute] { [:] }

    /// The case name, as `String(describing:)` prints a case without associated values.
    ///
    /// ```swift
    /// Item.fieldName(for: .quantity)   // "quantity"
    /// ```
    public static func fieldName(for attribute: Attribute) -> String {
        String(describing: attribute)
    }

    /// The field name for a key path, from ``attributeKeyPaths``.
    static func fieldName(for keyPath: PartialKeyPath<Self>) throws -> String {
        guard let attribute = attributeKeyPaths[keyPath] else {
            throw QueryError.unknownKeyPath(recordType: recordType, keyPath: "\(keyPath)")
        }
        return fieldName(for: attribute)
    }
}

extension Queryable where Attribute: RawRepresentable, Attribute.RawValue == String {
    /// The raw value.
    ///
    /// ```swift
    /// enum Attribute: String, CaseIterable { case quantity = "qty" }
    /// Item.fieldName(for: .quantity)   // "qty"
    /// ```
    public static func fieldName(for attribute: Attribute) -> String {
        attribute.rawValue
    }
}

/// A model that can be created empty, so ``Query/firstOrInsert()-6iyj1`` and
/// ``Query/fetchOrInsert(_:)-9yid8`` can fill in only the fields the query fixes.
///
/// ```swift
/// extension Item: DefaultInitializable {
///     init() { self.init(id: UUID().uuidString, name: "", quantity: 0, date: .distantPast) }
/// }
/// ```
public protocol DefaultInitializable {
    /// An empty model.
    init()
}
