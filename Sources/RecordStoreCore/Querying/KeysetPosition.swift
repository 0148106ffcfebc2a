import PredicateLanguage

/// Where a page ended in a query's total order: the sort values of the last record
/// returned (a distance for a distance sort) and its record name. The next page holds
/// the records strictly after this position.
@_spi(StorageEngine) public struct KeysetPosition: Sendable, Hashable {
    /// One value per sort key, in the query's sort order.
    @_spi(StorageEngine) public var sortValues: [Value]
    /// The record name, the final tie-breaker.
    @_spi(StorageEngine) public var recordName: String

    /// The position of a record under the sorts.
    @_spi(StorageEngine) public init(of record: Record, sorts: [Sort]) {
        sortValues = sorts.map { RecordOrdering.sortValue(of: record, for: $0) }
        recordName = record.recordID.recordName
    }

    /// Whether a position can mark a place in the order of these sorts: not when a sort key
    /// walks a relationship (`department.name`), whose value is on the related record, not on
    /// the record a page ended with. Queries so sorted page by offset.
    ///
    /// ```swift
    /// KeysetPosition.marksPlaces(in: [Sort("name")])              // true
    /// KeysetPosition.marksPlaces(in: [Sort("department.name")])   // false
    /// ```
    @_spi(StorageEngine) public static func marksPlaces(in sorts: [Sort]) -> Bool {
        !sorts.contains { $0.key.contains(".") }
    }

    @_spi(StorageEngine) public init(sortValues: [Value], recordName: String) {
        self.sortValues = sortValues
        self.recordName = recordName
    }
}
