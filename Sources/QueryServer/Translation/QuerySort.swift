// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

/// CloudKit's `sortBy` (decoded as ``SortRequest``s) as the store's sorts: a field, or the
/// distance from a point (nearest first when ascending); a sort by the record's owner orders
/// nothing (every record has the one owner) and is left out.
///
/// ```swift
/// let query = try RequestBodyDecoder.decode(RecordQueryRequest.self, from: ["recordType": "City", "sortBy": [["fieldName": "population", "ascending": false]]], at: "query")
/// QuerySort.sorts(from: query.sortBy)   // [Sort("population", ascending: false)]
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `Sort`, `SortDirection`
/// and `SortComparison`.
enum QuerySort {
    static func sorts(from sortBy: [SortRequest]) -> [Sort] {
        sortBy.compactMap { entry in
            guard let key = entry.field.sortKey else { return nil }
            if let origin = entry.relativeLocation {
                return Sort.distance(from: origin, key: key, ascending: entry.ascending)
            }
            return Sort(key, ascending: entry.ascending)
        }
    }
}
#endif
