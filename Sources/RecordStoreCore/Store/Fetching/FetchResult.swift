import PredicateLanguage

/// What ``Store/fetch(_:)-ucfn`` returns, by the request's result type.
///
/// ```swift
/// switch try store.fetch(request) {
/// case .records(let records): print(records.count)
/// case .recordIDs(let ids): print(ids)
/// case .count(let count): print(count)
/// case .dictionaries(let rows): print(rows)
/// }
/// let names = try store.fetch(request).records.map(\.recordID.recordName)
/// ```
public enum FetchResult: Sendable, Hashable {
    /// The matching records, for ``FetchRequest/ResultType/records``.
    case records([Record])
    /// The IDs of the matching records, for ``FetchRequest/ResultType/recordIDs``.
    case recordIDs([RecordID])
    /// The number of matches, for ``FetchRequest/ResultType/count``.
    case count(Int)
    /// One dictionary a match (or a group), for ``FetchRequest/ResultType/dictionaries``.
    case dictionaries([[String: Value]])

    /// The records ([] for other result types).
    public var records: [Record] {
        if case .records(let records) = self { return records }
        return []
    }

    /// The record IDs (those of the records for record results).
    public var recordIDs: [RecordID] {
        switch self {
        case .recordIDs(let ids): ids
        case .records(let records): records.map(\.recordID)
        default: []
        }
    }

    /// The dictionaries ([] for other result types).
    public var dictionaries: [[String: Value]] {
        if case .dictionaries(let rows) = self { return rows }
        return []
    }

    /// The number of results of any type.
    public var count: Int {
        switch self {
        case .records(let records): records.count
        case .recordIDs(let ids): ids.count
        case .count(let count): count
        case .dictionaries(let rows): rows.count
        }
    }
}
