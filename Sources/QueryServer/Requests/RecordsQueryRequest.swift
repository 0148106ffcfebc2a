// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of `records/query`: `zoneID`, `resultsLimit` (1 to 200, default 200),
/// `desiredKeys`, `numbersAsStrings`, and either `continuationMarker` (to continue a query) or
/// `query` (``RecordQueryRequest``), as ``Source``.
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(RecordsQueryRequest.self, from: ["query": ["recordType": "City"], "resultsLimit": 10])
/// request.resultsLimit   // 10
/// ```
struct RecordsQueryRequest: Decodable {
    let zoneID: ZoneIDRequest?
    let resultsLimit: Int
    /// The fields to answer; nil for every field.
    let desiredKeys: [String]?
    let numbersAsStrings: Bool
    /// What to answer: a new query, or the next batch of one.
    let source: Source

    /// A new query (`query`), or the next batch of one (`continuationMarker`, which wins).
    enum Source {
        case query(RecordQueryRequest)
        case continuation(marker: String)
    }

    private enum CodingKeys: String, CodingKey {
        case zoneID, resultsLimit, desiredKeys, numbersAsStrings, continuationMarker, query
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        zoneID = try container.decodeIfPresent(ZoneIDRequest.self, forKey: .zoneID)
        resultsLimit = try container.resultsLimit(.resultsLimit)
        desiredKeys = try container.decodeIfPresent([String].self, forKey: .desiredKeys)
        numbersAsStrings = try container.decodeIfPresent(Bool.self, forKey: .numbersAsStrings) ?? false
        if let marker = try container.decodeIfPresent(String.self, forKey: .continuationMarker) {
            source = .continuation(marker: marker)
        } else {
            source = .query(try container.decode(RecordQueryRequest.self, forKey: .query))
        }
    }
}
#endif
