// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of this server's `records/explain`: the body of `records/query` (`zoneID`,
/// `resultsLimit`, `query`), its `query` required (a `continuationMarker` is not read).
///
/// ```swift
/// let request = try RecordsExplainRequest(body: ["query": ["recordType": "City", "predicate": "population > 1000000"]])
/// request.query.recordType   // "City"
/// ```
struct RecordsExplainRequest: RequestDecodable {
    let zoneID: ZoneIDRequest?
    let resultsLimit: Int
    let query: RecordQueryRequest

    init(_ object: RequestObject) throws(ServerError) {
        zoneID = try object.decode("zoneID")
        resultsLimit = try RecordsQueryRequest.resultsLimit(object)
        query = try object.decodeRequired("query")
    }
}
#endif
