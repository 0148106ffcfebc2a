import PredicateLanguage

/// The comparisons one condition makes on one field, and, for a plain equality, the value
/// ``Query/firstOrInsert()-6iyj1`` gives a new model.
///
/// ```swift
/// (1...3).fieldCondition(for: "quantity").predicate.predicateFormat   // quantity BETWEEN {1, 3}
/// 1.fieldCondition(for: "quantity").insertionValue                     // .int(1)
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `KeyPathCondition`,
/// `AttributeCondition`, `SQLCondition` and `QueryFilter`.
public struct FieldCondition: Sendable, Hashable {
    /// The comparisons, all of which must hold.
    public var comparisons: [ComparisonPredicate]
    /// The field's value when the condition is a plain equality; nil otherwise.
    public var insertionValue: Value?

    /// Creates a condition from comparisons and, for a plain equality, its value.
    ///
    /// ```swift
    /// FieldCondition(comparisons: [ComparisonPredicate(.keyPath("quantity"), .equalTo, .constant(1))], insertionValue: 1)
    /// ```
    public init(comparisons: [ComparisonPredicate], insertionValue: Value? = nil) {
        self.comparisons = comparisons
        self.insertionValue = insertionValue
    }

    /// A single comparison of a field with a constant.
    static func comparing(_ field: String, _ operator: ComparisonOperator, _ value: Value, options: ComparisonOptions = []) -> FieldCondition {
        FieldCondition(comparisons: [ComparisonPredicate(.keyPath(field), `operator`, .constant(value), options: options)])
    }

    /// A plain equality, which ``Query/firstOrInsert()`` can turn into a field value.
    static func equality(_ field: String, _ value: Value) -> FieldCondition {
        FieldCondition(
            comparisons: [ComparisonPredicate(.keyPath(field), .equalTo, .constant(value))],
            insertionValue: value)
    }

    /// The comparisons as one predicate (an `AND` when there are several).
    ///
    /// ```swift
    /// (1..<3).fieldCondition(for: "quantity").predicate.predicateFormat   // quantity >= 1 AND quantity < 3
    /// ```
    public var predicate: FormatPredicate {
        comparisons.count == 1 ? .comparison(comparisons[0]) : .and(comparisons.map(FormatPredicate.comparison))
    }
}
