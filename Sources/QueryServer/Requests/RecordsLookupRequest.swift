// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of `records/lookup`: `records` (at most 200 of `{recordName, desiredKeys}`),
/// `zoneID`, `desiredKeys` (for every record without its own), `numbersAsStrings`.
///
/// ```swift
/// let request = try RecordsLookupRequest(body: ["records": [["recordName": "2988507"]]])
/// request.records[0].recordName   // "2988507"
/// ```
struct RecordsLookupRequest: RequestDecodable {
    /// One record to look up.
    struct Entry: RequestDecodable {
        let recordName: String
        /// The fields to answer for this record; nil for the request's.
        let desiredKeys: [String]?

        init(_ object: RequestObject) throws(ServerError) {
            recordName = try object.requiredString("recordName")
            guard !recordName.isEmpty else { throw ServerError(.badRequest, "\(object.path("recordName")) is empty") }
            desiredKeys = try object.strings("desiredKeys")
        }
    }

    let zoneID: ZoneIDRequest?
    let numbersAsStrings: Bool
    let desiredKeys: [String]?
    let records: [Entry]

    init(_ object: RequestObject) throws(ServerError) {
        zoneID = try object.decode("zoneID")
        numbersAsStrings = try object.bool("numbersAsStrings") ?? false
        desiredKeys = try object.strings("desiredKeys")
        records = try object.decodeRequiredArray("records", maximumCount: RequestLimits.maximumBatch)
    }
}
#endif
