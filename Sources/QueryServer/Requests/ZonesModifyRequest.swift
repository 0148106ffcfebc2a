// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of `zones/modify`: `operations` (at most 200), each `{operationType: "create" |
/// "delete", zone: {zoneID: {zoneName}}}` (or `zone: {zoneName}`).
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(ZonesModifyRequest.self, from: ["operations": [["operationType": "create", "zone": ["zoneID": ["zoneName": "staff"]]]]])
/// request.operations[0].operationType   // .create
/// ```
struct ZonesModifyRequest: Decodable {
    /// One operation on a zone.
    struct Operation: Decodable {
        enum Kind: String {
            case create, delete
        }

        let operationType: Kind
        let zone: ZoneIDRequest

        private enum CodingKeys: String, CodingKey {
            case operationType, zone
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let expected = #""create" or "delete""#
            let typeName = try container.decode(String.self, forKey: .operationType, expected: expected)
            guard let kind = Kind(rawValue: typeName) else {
                throw ServerError(.badRequest, "\(container.path(.operationType)) is \(expected), not '\(typeName.prefix(80))'")
            }
            operationType = kind
            zone = try container.decode(ZoneIDRequest.self, forKey: .zone)
        }
    }

    let operations: [Operation]

    private enum CodingKeys: String, CodingKey {
        case operations
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        operations = try container.decodeBatch([Operation].self, forKey: .operations, maximumCount: RequestLimits.maximumBatch)
    }
}
#endif
