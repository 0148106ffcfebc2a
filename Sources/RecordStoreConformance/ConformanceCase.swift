import Foundation
import PredicateLanguage
import RecordStoreCore

/// One case of the conformance suite: a query and the number of records it must select, or a
/// behaviour of the store (``StoreBehavior``: saves, conflicts, zones, change history, assets,
/// live changes).
///
/// ``EngineConformance`` runs a query case on the engine under test and on the memory engine
/// (the reference) and compares the records they return, in order, and their counts; it runs a
/// behaviour case on the engine under test and compares each result with the exact one expected.
///
/// ```swift
/// let french = ConformanceCase(format: "countrycode == 'FR'", sorts: [Sort("population", ascending: false)], expectedCount: 692)
/// let conflicts = ConformanceCase(behavior: .conflicts)
/// ```
public struct ConformanceCase: Sendable, CustomStringConvertible {
    /// The predicate, as a format string.
    public var format: String
    /// The values of the format string's `%@` placeholders.
    public var arguments: [Value]
    /// The order the records must come in.
    public var sorts: [Sort]
    /// The most records to compare (all when nil); the count is always of every match.
    public var limit: Int?
    /// How many records of the data set the predicate selects.
    public var expectedCount: Int
    /// The behaviour this case checks, instead of a query; nil for a query case.
    public var behavior: StoreBehavior?

    /// A case; see the properties for each argument.
    public init(format: String, arguments: [Value] = [], sorts: [Sort] = [], limit: Int? = nil, expectedCount: Int) {
        self.format = format
        self.arguments = arguments
        self.sorts = sorts
        self.limit = limit
        self.expectedCount = expectedCount
    }

    /// A case that checks a behaviour of the store rather than a query.
    ///
    /// ```swift
    /// let history = ConformanceCase(behavior: .changeHistory)
    /// ```
    public init(behavior: StoreBehavior) {
        self.init(format: "", expectedCount: 0)
        self.behavior = behavior
    }

    /// The format string and its sorts, or the behaviour, as test reports name the case.
    public var description: String {
        if let behavior { return "behaviour: \(behavior.rawValue)" }
        return "\(format) \(sorts)"
    }
}
