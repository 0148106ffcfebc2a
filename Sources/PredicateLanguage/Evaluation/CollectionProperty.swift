/// The properties of a collection itself that a key path reaches with an `@` in front, as
/// Apple's key-value coding does (`NSArray` and `NSDictionary` strip the `@` and ask the
/// collection, rather than each member): `@firstObject`, `@lastObject`, `@allKeys`, `@allValues`.
///
/// `@count` (and the other aggregates) are ``CollectionOperator``s.
///
/// ```swift
/// CollectionProperty.lastObject.apply(to: [1, 2, 3])        // .int(3)
/// CollectionProperty.allKeys.apply(to: ["b": 1, "a": 2])    // .list(["a", "b"])
/// ```
public enum CollectionProperty: String, Sendable, Hashable, CaseIterable {
    /// The first member of a list; nil when empty or not a list.
    case firstObject = "@firstObject"
    /// The last member of a list; nil when empty or not a list.
    case lastObject = "@lastObject"
    /// The keys of an object, in code-point order (Apple gives no order); nil for other values.
    case allKeys = "@allKeys"
    /// The values of an object, in the order of ``allKeys``; nil for other values.
    case allValues = "@allValues"

    /// The property of `value`.
    ///
    /// ```swift
    /// CollectionProperty.firstObject.apply(to: [])   // .null
    /// ```
    public func apply(to value: Value) -> Value {
        switch (self, value) {
        case (.firstObject, .list(let members)): return members.first ?? .null
        case (.lastObject, .list(let members)): return members.last ?? .null
        case (.allKeys, .object(let fields)): return .list(fields.keys.sorted().map(Value.string))
        case (.allValues, .object(let fields)): return .list(fields.keys.sorted().map { fields[$0] ?? .null })
        default: return .null
        }
    }
}
