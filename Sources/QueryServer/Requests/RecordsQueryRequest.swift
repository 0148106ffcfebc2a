// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of `records/query`: `zoneID`, `resultsLimit` (1 to 200, default 200),
/// `desiredKeys`, `numbersAsStrings`, and either `continuationMarker` (to continue a query) or
/// `query` (``RecordQueryRequest``), as ``Source``.
///
/// ```swift
/// let request = try RecordsQueryRequest(body: ["query": ["recordType": "City"], "resultsLimit": 10])
/// request.resultsLimit   // 10
/// ```
struct RecordsQueryRequest: RequestDecodable {
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

    init(_ object: RequestObject) throws(ServerError) {
        zoneID = try object.decode("zoneID")
        resultsLimit = try Self.resultsLimit(object)
        desiredKeys = try object.strings("desiredKeys")
        numbersAsStrings = try object.bool("numbersAsStrings") ?? false
        if let marker = try object.string("continuationMarker") {
            source = .continuation(marker: marker)
        } else {
            source = .query(try object.decodeRequired("query"))
        }
    }

    /// `resultsLimit`: 1 to 200; absent, the most.
    static func resultsLimit(_ object: RequestObject) throws(ServerError) -> Int {
        let expected = "a number from 1 to \(RequestLimits.maximumBatch)"
        guard let limit = try object.integer("resultsLimit", expected) else { return RequestLimits.maximumBatch }
        guard limit >= 1, limit <= Int64(RequestLimits.maximumBatch) else {
            throw ServerError(.badRequest, "\(object.path("resultsLimit")) is \(expected)")
        }
        return Int(limit)
    }
}
#endif
