import PredicateLanguage

/// An aggregate column of a dictionary fetch: Core Data's `NSExpressionDescription` with
/// `sum:`, `average:`, `min:`, `max:` or `count:` of a field, under a result name.
///
/// Over the records of each group (all matches when nothing is grouped): `count` counts
/// the non-nil values; `sum` adds integers exactly (an integer result) or doubles (a double);
/// `average` is a double; `min` and `max` keep the field's type. With no values, `count` is 0
/// and the others are nil (left out of the dictionary).
///
/// ```swift
/// let total = AggregateProperty(name: "people", function: .sum, key: "population")
/// ```
public struct AggregateProperty: Sendable, Hashable {
    /// The aggregate functions.
    public enum Function: String, Sendable, Hashable, CaseIterable {
        /// `sum:`, `average:`, `min:`, `max:` and `count:` of the field's values, as described above.
        case sum, average, min, max, count
    }

    /// The key of the result in each dictionary.
    public var name: String
    /// What is computed.
    public var function: Function
    /// The field (or metadata name) aggregated.
    public var key: String

    /// Creates an aggregate column.
    ///
    /// ```swift
    /// AggregateProperty(name: "largest", function: .max, key: "population")
    /// ```
    public init(name: String, function: Function, key: String) {
        self.name = name
        self.function = function
        self.key = key
    }
}

/// One entry of ``FetchRequest/propertiesToFetch``: a field by name, or an aggregate.
///
/// ```swift
/// request.propertiesToFetch = ["countrycode", .aggregate(AggregateProperty(name: "n", function: .count, key: "name"))]
/// ```
public enum FetchProperty: Sendable, Hashable, ExpressibleByStringLiteral {
    /// A field or metadata name.
    case field(String)
    /// An aggregate over each group.
    case aggregate(AggregateProperty)

    public init(stringLiteral value: String) {
        self = .field(value)
    }
}
