// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The `query` object of `records/query`, `records/explain` and a query subscription:
/// `recordType`, `filterBy` (``FilterRequest``), `sortBy` (``SortRequest``), and this server's
/// extension `predicate` (an NSPredicate format string) with its `arguments` (values in the
/// command line's JSON mapping, read by ``TypedJSON``).
///
/// ```swift
/// let query = try RequestBodyDecoder.decode(RecordQueryRequest.self, from: ["recordType": "City", "sortBy": [["fieldName": "name"]]], at: "query")
/// query.sortBy.count   // 1
/// ```
struct RecordQueryRequest: Decodable {
    let recordType: String
    private(set) var filterBy: [FilterRequest]
    let sortBy: [SortRequest]
    let predicate: String?
    private(set) var arguments: [Value]

    private enum CodingKeys: String, CodingKey {
        case recordType, filterBy, sortBy, predicate, arguments
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        recordType = try container.decode(String.self, forKey: .recordType)
        filterBy = try container.decodeIfPresent([FilterRequest].self, forKey: .filterBy) ?? []
        sortBy = try container.decodeIfPresent([SortRequest].self, forKey: .sortBy) ?? []
        predicate = try container.decodeIfPresent(String.self, forKey: .predicate, expected: "an NSPredicate format string")
        arguments = try container.decodeIfPresent([TypedJSON].self, forKey: .arguments)?.map(\.value) ?? []
    }

    /// The query with its references (in `filterBy` values and `arguments`) in a namespace's
    /// zone names, as the store keeps them (``Namespace/storedValue(_:path:)``).
    func stored(in namespace: Namespace) throws(ServerError) -> RecordQueryRequest {
        var stored = self
        for index in filterBy.indices {
            let filter = filterBy[index]
            stored.filterBy[index].value = try namespace.storedValue(filter.value, path: "\(filter.path).fieldValue")
        }
        for index in arguments.indices {
            stored.arguments[index] = try namespace.storedValue(arguments[index], path: "query.arguments[\(index)]")
        }
        return stored
    }
}
#endif
