/// Why a Foundation `Predicate` could not become a `FormatPredicate`: something in it has no
/// counterpart in the predicate language (or in the model's field table). Thrown at conversion,
/// before any query runs: a predicate is converted whole or not at all, never with a change of
/// meaning.
///
/// ```swift
/// do { _ = try FormatPredicate(#Predicate<Item> { $0.name.uppercased() == "A" }) }
/// catch let error as PredicateConversionError { print(error) }
/// // the expression StringUppercased<...> has no counterpart in the predicate language
/// ```
public enum PredicateConversionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An expression of this type has no counterpart.
    case unsupportedExpression(String)
    /// A key path the model's field table does not name (add it to `attributeKeyPaths`).
    case unknownKeyPath(String, model: String)
    /// A key path on a value that is not the model and not a collection's `count`, `isEmpty`,
    /// `first` or `last`.
    case unsupportedKeyPath(String)
    /// A constant of a type the store cannot hold.
    case unsupportedConstant(String)

    public var description: String {
        switch self {
        case .unsupportedExpression(let type):
            "the expression \(type) has no counterpart in the predicate language"
        case .unknownKeyPath(let keyPath, let model):
            "the key path \(keyPath) names no field of \(model): list it in \(model).attributeKeyPaths"
        case .unsupportedKeyPath(let keyPath):
            "the key path \(keyPath) has no counterpart (only the model's fields, and count, isEmpty, first and last of a collection)"
        case .unsupportedConstant(let type):
            "a constant of type \(type) cannot be compared with stored values"
        }
    }
}
