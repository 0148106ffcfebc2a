// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of `records/lookup`: `records` (at most 200 of `{recordName, desiredKeys}`),
/// `zoneID`, `desiredKeys` (for every record without its own), `numbersAsStrings`.
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(RecordsLookupRequest.self, from: ["records": [["recordName": "2988507"]]])
/// request.records[0].recordName   // "2988507"
/// ```
struct RecordsLookupRequest: Decodable {
    /// One record to look up.
    struct Entry: Decodable {
        let recordName: String
        /// The fields to answer for this record; nil for the request's.
        let desiredKeys: [String]?

        private enum CodingKeys: String, CodingKey {
            case recordName, desiredKeys
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            recordName = try container.decode(String.self, forKey: .recordName)
            guard !recordName.isEmpty else { throw ServerError(.badRequest, "\(container.path(.recordName)) is empty") }
            desiredKeys = try container.decodeIfPresent([String].self, forKey: .desiredKeys)
        }
    }

    let zoneID: ZoneIDRequest?
    let numbersAsStrings: Bool
    let desiredKeys: [String]?
    let records: [Entry]

    private enum CodingKeys: String, CodingKey {
        case zoneID, numbersAsStrings, desiredKeys, records
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        zoneID = try container.decodeIfPresent(ZoneIDRequest.self, forKey: .zoneID)
        numbersAsStrings = try container.decodeIfPresent(Bool.self, forKey: .numbersAsStrings) ?? false
        desiredKeys = try container.decodeIfPresent([String].self, forKey: .desiredKeys)
        records = try container.decodeBatch([Entry].self, forKey: .records, maximumCount: RequestLimits.maximumBatch)
    }
}
#endif
