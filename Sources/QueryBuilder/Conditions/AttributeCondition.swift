import Foundation
import PredicateLanguage

/// A value usable as the condition on one attribute in the dictionary forms
/// `.where([.quantity: 1])` and `.or([...])`, and after a key path or attribute in
/// `.where(\.quantity, 1...3)`.
///
/// - A plain value (`1`, `"Alice"`, a `Date`, ...) is `field == value`.
/// - An array is `field IN {...}`.
/// - `a...b` is `field BETWEEN {a, b}`; `a..<b` is `field >= a AND field < b`;
///   `a...` is `field >= a`; `...b` is `field <= b`; `..<b` is `field < b`.
/// - The wrappers ``lt(_:)``, ``lte(_:)``, ``gt(_:)``, ``gte(_:)``, ``ne(_:)`` and the string tests
///   of ``FieldComparison`` (`.beginsWith("A")`, ...) are the comparisons they name.
///
/// ```swift
/// try Item.query(in: context).where([.quantity: 1...3, .name: ["Apple", "Pear"]])
/// // quantity BETWEEN {1, 3} AND name IN {"Apple", "Pear"}
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `FieldCondition`,
/// `KeyPathCondition`, `SQLCondition` and `QueryFilter`.
public protocol AttributeCondition {
    /// The condition on a field.
    ///
    /// ```swift
    /// lt(5).fieldCondition(for: "quantity").predicate.predicateFormat   // quantity < 5
    /// ```
    func fieldCondition(for field: String) -> FieldCondition
}

extension AttributeCondition where Self: FormatArgument {
    /// `field == value`.
    ///
    /// ```swift
    /// "Alice".fieldCondition(for: "name").predicate.predicateFormat   // name == "Alice"
    /// ```
    public func fieldCondition(for field: String) -> FieldCondition {
        .equality(field, formatArgumentValue)
    }
}

extension String: AttributeCondition {}
extension Substring: AttributeCondition {}
extension Bool: AttributeCondition {}
extension Int: AttributeCondition {}
extension Int8: AttributeCondition {}
extension Int16: AttributeCondition {}
extension Int32: AttributeCondition {}
extension Int64: AttributeCondition {}
extension UInt: AttributeCondition {}
extension UInt8: AttributeCondition {}
extension UInt16: AttributeCondition {}
extension UInt32: AttributeCondition {}
extension UInt64: AttributeCondition {}
extension Double: AttributeCondition {}
extension Float: AttributeCondition {}
extension Date: AttributeCondition {}
extension Data: AttributeCondition {}
extension UUID: AttributeCondition {}
extension Location: AttributeCondition {}
extension Reference: AttributeCondition {}
extension Value: AttributeCondition {}
extension RecordReference: AttributeCondition {}

extension Optional: AttributeCondition where Wrapped: FormatArgument {
    /// `field == value`, or `field == nil` for nil.
    ///
    /// ```swift
    /// Optional<String>.none.fieldCondition(for: "note").predicate.predicateFormat   // note == nil
    /// ```
    public func fieldCondition(for field: String) -> FieldCondition {
        .equality(field, formatArgumentValue)
    }
}

extension Array: AttributeCondition where Element: FormatArgument {
    /// `field IN {members}`.
    ///
    /// ```swift
    /// [1, 2].fieldCondition(for: "quantity").predicate.predicateFormat   // quantity IN {1, 2}
    /// ```
    public func fieldCondition(for field: String) -> FieldCondition {
        .comparing(field, .in, formatArgumentValue)
    }
}

extension Set: AttributeCondition where Element: FormatArgument {
    /// `field IN {members}` (in the set's iteration order).
    ///
    /// ```swift
    /// Set([1]).fieldCondition(for: "quantity").predicate.predicateFormat   // quantity IN {1}
    /// ```
    public func fieldCondition(for field: String) -> FieldCondition {
        .comparing(field, .in, formatArgumentValue)
    }
}

extension ClosedRange: AttributeCondition where Bound: FormatArgument {
    /// `field BETWEEN {lower, upper}`.
    ///
    /// ```swift
    /// (1...3).fieldCondition(for: "quantity").predicate.predicateFormat   // quantity BETWEEN {1, 3}
    /// ```
    public func fieldCondition(for field: String) -> FieldCondition {
        .comparing(field, .between, .list([lowerBound.formatArgumentValue, upperBound.formatArgumentValue]))
    }
}

extension Range: AttributeCondition where Bound: FormatArgument {
    /// `field >= lower AND field < upper`.
    ///
    /// ```swift
    /// (1..<3).fieldCondition(for: "quantity").predicate.predicateFormat   // quantity >= 1 AND quantity < 3
    /// ```
    public func fieldCondition(for field: String) -> FieldCondition {
        FieldCondition(comparisons: [
            ComparisonPredicate(.keyPath(field), .greaterThanOrEqualTo, .constant(lowerBound.formatArgumentValue)),
            ComparisonPredicate(.keyPath(field), .lessThan, .constant(upperBound.formatArgumentValue)),
        ])
    }
}

extension PartialRangeFrom: AttributeCondition where Bound: FormatArgument {
    /// `field >= lower`.
    ///
    /// ```swift
    /// (2...).fieldCondition(for: "quantity").predicate.predicateFormat   // quantity >= 2
    /// ```
    public func fieldCondition(for field: String) -> FieldCondition {
        .comparing(field, .greaterThanOrEqualTo, lowerBound.formatArgumentValue)
    }
}

extension PartialRangeThrough: AttributeCondition where Bound: FormatArgument {
    /// `field <= upper`.
    ///
    /// ```swift
    /// (...2).fieldCondition(for: "quantity").predicate.predicateFormat   // quantity <= 2
    /// ```
    public func fieldCondition(for field: String) -> FieldCondition {
        .comparing(field, .lessThanOrEqualTo, upperBound.formatArgumentValue)
    }
}

extension PartialRangeUpTo: AttributeCondition where Bound: FormatArgument {
    /// `field < upper`.
    ///
    /// ```swift
    /// (..<2).fieldCondition(for: "quantity").predicate.predicateFormat   // quantity < 2
    /// ```
    public func fieldCondition(for field: String) -> FieldCondition {
        .comparing(field, .lessThan, upperBound.formatArgumentValue)
    }
}
