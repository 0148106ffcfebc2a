import PredicateLanguage

/// Where a page ended in a query's total order: the sort values of the last record
/// returned (a distance for a distance sort) and its record name. The next page holds
/// the records strictly after this position.
package struct KeysetPosition: Sendable, Hashable {
    /// One value per sort key, in the query's sort order.
    package var sortValues: [Value]
    /// The record name, the final tie-breaker.
    package var recordName: String

    /// The position of a record under the sorts.
    package init(of record: Record, sorts: [Sort]) {
        sortValues = sorts.map { RecordOrdering.sortValue(of: record, for: $0) }
        recordName = record.recordID.recordName
    }

    package init(sortValues: [Value], recordName: String) {
        self.sortValues = sortValues
        self.recordName = recordName
    }
}
