import PredicateLanguage

/// A collection operator applied to one field of a to-many's members, as a key path reads it
/// after the relationship: `@sum.salary`, `@avg.salary`, `@min.hired`, `@max.salary`.
///
/// ```swift
/// MemberAggregate(path: "@avg.salary")   // MemberAggregate(function: .average, field: "salary")
/// MemberAggregate(path: "@count")        // nil (a count reads no field)
/// ```
@_spi(StorageEngine) public struct MemberAggregate: Equatable, Sendable {
    /// `@sum`, `@avg`, `@min` or `@max`.
    @_spi(StorageEngine) public var function: CollectionOperator
    /// The members' field it reads (a plain field name, no further key).
    @_spi(StorageEngine) public var field: String

    /// The aggregate a key path after a relationship names, or nil for any other path.
    @_spi(StorageEngine) public init?(path: String) {
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let function = CollectionOperator(rawValue: parts[0]),
              [.sum, .average, .minimum, .maximum].contains(function),
              !parts[1].isEmpty, !parts[1].hasPrefix("@") else { return nil }
        self.function = function
        self.field = parts[1]
    }
}
