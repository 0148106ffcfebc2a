import Foundation
import PredicateLanguage

/// The order of records under a list of sorts, in Swift: the memory engine sorts with it,
/// and the SQLite engine's `ORDER BY` gives the same order, so records fetched from any
/// engine can be merged with records held in memory (a context's pending changes).
///
/// Nil sorts first ascending, numbers compare by value, strings by the sort's comparison,
/// dates in time; the record name (by its UTF-8 bytes) breaks ties, so the order is total.
///
/// ```swift
/// let ordering = RecordOrdering(sorts: [Sort("population", ascending: false), Sort("name")])
/// let merged = (fetched + pending).sorted(by: ordering.precedes)
/// RecordOrdering.compare(.int(2), .double(10), comparison: .compare)   // .orderedAscending
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `Sort`, `SortComparison`
/// and `ValueOrdering`.
public struct RecordOrdering: Sendable {
    /// The sort keys, most significant first.
    public let sorts: [Sort]

    /// Creates the order of a list of sorts.
    ///
    /// ```swift
    /// let byName = RecordOrdering(sorts: [Sort("name", comparison: .localizedStandard)])
    /// ```
    public init(sorts: [Sort]) {
        self.sorts = sorts
    }

    /// The value a record sorts by for one sort key (a distance for a distance sort).
    ///
    /// ```swift
    /// RecordOrdering.sortValue(of: paris, for: Sort("population"))   // .int(2138551)
    /// ```
    public static func sortValue(of record: Record, for sort: Sort) -> Value {
        let value = record.value(named: sort.key)
        if let origin = sort.distanceOrigin {
            guard case .location(let location) = value else { return .null }
            return .double(location.distance(to: origin))
        }
        return value
    }

    /// Whether `lhs` comes before `rhs` (a strict order: false for a record and itself).
    ///
    /// ```swift
    /// records.sorted(by: RecordOrdering(sorts: [Sort("name")]).precedes)
    /// ```
    public func precedes(_ lhs: Record, _ rhs: Record) -> Bool {
        for sort in sorts {
            let order = Self.compare(Self.sortValue(of: lhs, for: sort), Self.sortValue(of: rhs, for: sort), comparison: sort.comparison)
            if order != .orderedSame {
                return sort.ascending ? order == .orderedAscending : order == .orderedDescending
            }
        }
        return SortComparison.compareBytes(lhs.recordID.recordName, rhs.recordID.recordName) == .orderedAscending
    }

    /// Whether a record comes strictly after a keyset position in this order.
    @_spi(StorageEngine) public func follows(_ record: Record, _ position: KeysetPosition) -> Bool {
        for (index, sort) in sorts.enumerated() where index < position.sortValues.count {
            let order = Self.compare(Self.sortValue(of: record, for: sort), position.sortValues[index], comparison: sort.comparison)
            if order != .orderedSame {
                return sort.ascending ? order == .orderedDescending : order == .orderedAscending
            }
        }
        return SortComparison.compareBytes(record.recordID.recordName, position.recordName) == .orderedDescending
    }

    /// One page of a query's matches (in any order): those after the keyset position, sorted,
    /// then `offset` skipped and at most `limit` kept; only the first `offset + limit` are
    /// sorted fully.
    ///
    /// ```swift
    /// let page = ordering.page(of: matches, after: nil, offset: 20, limit: 10)   // matches 21...30
    /// ```
    @_spi(StorageEngine) public func page(of matches: [Record], after position: KeysetPosition?, offset: Int, limit: Int?) -> [Record] {
        var matches = matches
        if let position { matches.removeAll { !follows($0, position) } }
        let skip = max(0, offset)
        if let limit {
            let (wanted, overflow) = skip.addingReportingOverflow(max(0, limit))
            matches = overflow ? matches.sorted(by: precedes) : first(wanted, of: matches)
        } else {
            matches.sort(by: precedes)
        }
        if skip > 0 { matches.removeFirst(min(skip, matches.count)) }
        if let limit, matches.count > limit { matches.removeSubrange(max(0, limit)...) }
        return matches
    }

    /// The first `count` records in this order, found in one pass (a bounded sorted buffer).
    @_spi(StorageEngine) public func first(_ count: Int, of records: [Record]) -> [Record] {
        guard count > 0 else { return [] }
        if count >= records.count / 4 { return Array(records.sorted(by: precedes).prefix(count)) }
        var best: [Record] = []
        best.reserveCapacity(count + 1)
        for record in records {
            if best.count == count, let last = best.last, !precedes(record, last) { continue }
            var low = 0
            var high = best.count
            while low < high {
                let middle = (low + high) / 2
                if precedes(best[middle], record) { low = middle + 1 } else { high = middle }
            }
            best.insert(record, at: low)
            if best.count > count { best.removeLast() }
        }
        return best
    }

    /// Compares two sort values: nil first, numbers by value, strings by the comparison, dates in time
    /// (values of different kinds that are not both numbers are the same).
    ///
    /// ```swift
    /// RecordOrdering.compare(.null, .int(1), comparison: .compare)                              // .orderedAscending
    /// RecordOrdering.compare(.string("a"), .string("B"), comparison: .localizedCaseInsensitive)  // .orderedAscending
    /// ```
    public static func compare(_ lhs: Value, _ rhs: Value, comparison: SortComparison) -> ComparisonResult {
        switch (lhs, rhs) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        case (.string(let a), .string(let b)): return comparison.compare(a, b)
        case (.date(let a), .date(let b)):
            return compareDoubles(a.timeIntervalSinceReferenceDate, b.timeIntervalSinceReferenceDate)
        default:
            if lhs.isNumeric, rhs.isNumeric {
                return NumericComparison.compare(lhs, rhs) ?? .orderedSame
            }
            return .orderedSame
        }
    }

    private static func compareDoubles(_ a: Double, _ b: Double) -> ComparisonResult {
        a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
    }
}
