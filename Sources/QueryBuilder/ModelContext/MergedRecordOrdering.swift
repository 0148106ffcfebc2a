import Foundation
import PredicateLanguage
import RecordStore

/// The store's order of records under a list of sorts, in Swift, to merge pending records into
/// fetched ones: nil first ascending, numbers by value, strings by the sort's comparison, dates in
/// time, the record name breaking ties.
struct MergedRecordOrdering: Sendable {
    let sorts: [Sort]

    func precedes(_ lhs: Record, _ rhs: Record) -> Bool {
        for sort in sorts {
            let order = Self.compare(Self.sortValue(of: lhs, for: sort), Self.sortValue(of: rhs, for: sort), comparison: sort.comparison)
            if order != .orderedSame {
                return sort.ascending ? order == .orderedAscending : order == .orderedDescending
            }
        }
        return ValueOrdering.compareCodePoints(lhs.recordID.recordName, rhs.recordID.recordName) == .orderedAscending
    }

    static func sortValue(of record: Record, for sort: Sort) -> Value {
        let value = record.value(named: sort.key)
        if let origin = sort.distanceOrigin {
            guard case .location(let location) = value else { return .null }
            return .double(location.distance(to: origin))
        }
        return value
    }

    static func compare(_ lhs: Value, _ rhs: Value, comparison: SortComparison) -> ComparisonResult {
        switch (lhs, rhs) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        case (.string(let a), .string(let b)): return comparison.compare(a, b)
        case (.date(let a), .date(let b)):
            return a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
        default:
            if lhs.isNumeric, rhs.isNumeric {
                return NumericComparison.compare(lhs, rhs) ?? .orderedSame
            }
            return .orderedSame
        }
    }
}
