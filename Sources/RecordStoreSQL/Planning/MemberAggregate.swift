import PredicateLanguage

/// A collection operator applied to one field of a to-many's members, as a key path reads it
/// after the relationship: `@sum.salary`, `@avg.salary`, `@min.hired`, `@max.salary`.
///
/// ```swift
/// MemberAggregate(path: "@avg.salary")   // MemberAggregate(function: .average, field: "salary")
/// MemberAggregate(path: "@count")        // nil (a count reads no field)
/// ```
package struct MemberAggregate: Equatable {
    /// `@sum`, `@avg`, `@min` or `@max`.
    package var function: CollectionOperator
    /// The members' field it reads (a plain field name, no further key).
    package var field: String

    /// The aggregate a key path after a relationship names, or nil for any other path.
    package init?(path: String) {
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let function = CollectionOperator(rawValue: parts[0]),
              [.sum, .average, .minimum, .maximum].contains(function),
              !parts[1].isEmpty, !parts[1].hasPrefix("@") else { return nil }
        self.function = function
        self.field = parts[1]
    }
}
