import PredicateLanguage

/// What ``Store/fetch(_:)`` returns, by the request's result type.
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
    case records([Record])
    case recordIDs([RecordID])
    case count(Int)
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
