// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The `query` object of `records/query`, `records/explain` and a query subscription:
/// `recordType`, `filterBy` (``FilterRequest``), `sortBy` (``SortRequest``), and this server's
/// extension `predicate` (an NSPredicate format string) with its `arguments` (values in the
/// command line's JSON mapping, read by ``TypedJSON``).
///
/// ```swift
/// let query = try RecordQueryRequest(RequestObject(["recordType": "City", "sortBy": [["fieldName": "name"]]], path: "query"))
/// query.sortBy.count   // 1
/// ```
struct RecordQueryRequest: RequestDecodable {
    let recordType: String
    private(set) var filterBy: [FilterRequest]
    let sortBy: [SortRequest]
    let predicate: String?
    private(set) var arguments: [Value]

    init(_ object: RequestObject) throws(ServerError) {
        recordType = try object.requiredString("recordType")
        filterBy = try object.decodeArray("filterBy") ?? []
        sortBy = try object.decodeArray("sortBy") ?? []
        predicate = try object.string("predicate", "an NSPredicate format string")
        arguments = try TypedJSON.values(object, "arguments")
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
