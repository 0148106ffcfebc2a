import Foundation
import PredicateLanguage
import RecordStoreCore

/// One query of the conformance suite, and the number of records it must select.
///
/// ``EngineConformance`` runs each case on the engine under test and on the memory engine (the
/// reference) and compares the records they return, in order, and their counts.
///
/// ```swift
/// let french = ConformanceCase(format: "countrycode == 'FR'", sorts: [Sort("population", ascending: false)], expectedCount: 692)
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

    /// A case; see the properties for each argument.
    public init(format: String, arguments: [Value] = [], sorts: [Sort] = [], limit: Int? = nil, expectedCount: Int) {
        self.format = format
        self.arguments = arguments
        self.sorts = sorts
        self.limit = limit
        self.expectedCount = expectedCount
    }

    /// The format string and its sorts, as test reports name the case.
    public var description: String { "\(format) \(sorts)" }
}
