// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of this server's `records/explain`: the body of `records/query` (`zoneID`,
/// `resultsLimit`, `query`), its `query` required (a `continuationMarker` is not read).
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(RecordsExplainRequest.self, from: ["query": ["recordType": "City", "predicate": "population > 1000000"]])
/// request.query.recordType   // "City"
/// ```
struct RecordsExplainRequest: Decodable {
    let zoneID: ZoneIDRequest?
    let resultsLimit: Int
    let query: RecordQueryRequest

    private enum CodingKeys: String, CodingKey {
        case zoneID, resultsLimit, query
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        zoneID = try container.decodeIfPresent(ZoneIDRequest.self, forKey: .zoneID)
        resultsLimit = try container.resultsLimit(.resultsLimit)
        query = try container.decode(RecordQueryRequest.self, forKey: .query)
    }
}
#endif
