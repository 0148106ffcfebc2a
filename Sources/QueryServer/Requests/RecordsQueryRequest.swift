import PredicateLanguage

/// The body of `records/query`: `zoneID`, `resultsLimit` (1 to 200, default 200),
/// `desiredKeys`, `numbersAsStrings`, and either `continuationMarker` (to continue a query) or
/// `query` (``RecordQueryRequest``).
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
    let continuationMarker: String?
    /// The query; nil only when a `continuationMarker` continues one.
    let query: RecordQueryRequest?

    init(_ object: RequestObject) throws(ServerError) {
        zoneID = try object.decode("zoneID")
        resultsLimit = try Self.resultsLimit(object)
        desiredKeys = try object.strings("desiredKeys")
        numbersAsStrings = try object.bool("numbersAsStrings") ?? false
        continuationMarker = try object.string("continuationMarker")
        query = continuationMarker == nil ? try object.decodeRequired("query") : nil
    }

    /// `resultsLimit`: 1 to 200; absent, the most.
    static func resultsLimit(_ object: RequestObject) throws(ServerError) -> Int {
        let expected = "a number from 1 to \(CloudKitService.maximumBatch)"
        guard let limit = try object.integer("resultsLimit", expected) else { return CloudKitService.maximumBatch }
        guard limit >= 1, limit <= Int64(CloudKitService.maximumBatch) else {
            throw ServerError(.badRequest, "\(object.path("resultsLimit")) is \(expected)")
        }
        return Int(limit)
    }
}
