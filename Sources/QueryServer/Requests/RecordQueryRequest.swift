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
    let filterBy: [FilterRequest]
    let sortBy: [SortRequest]
    let predicate: String?
    let arguments: [Value]

    init(_ object: RequestObject) throws(ServerError) {
        recordType = try object.requiredString("recordType")
        filterBy = try object.decodeArray("filterBy") ?? []
        sortBy = try object.decodeArray("sortBy") ?? []
        predicate = try object.string("predicate", "an NSPredicate format string")
        arguments = try TypedJSON.values(object, "arguments")
    }
}
#endif
