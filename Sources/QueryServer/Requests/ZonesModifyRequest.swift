// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of `zones/modify`: `operations` (at most 200), each `{operationType: "create" |
/// "delete", zone: {zoneID: {zoneName}}}` (or `zone: {zoneName}`).
///
/// ```swift
/// let request = try ZonesModifyRequest(body: ["operations": [["operationType": "create", "zone": ["zoneID": ["zoneName": "staff"]]]]])
/// request.operations[0].operationType   // .create
/// ```
struct ZonesModifyRequest: RequestDecodable {
    /// One operation on a zone.
    struct Operation: RequestDecodable {
        enum Kind: String {
            case create, delete
        }

        let operationType: Kind
        let zone: ZoneIDRequest

        init(_ object: RequestObject) throws(ServerError) {
            let expected = #""create" or "delete""#
            let typeName = try object.requiredString("operationType", expected)
            guard let kind = Kind(rawValue: typeName) else {
                throw ServerError(.badRequest, "\(object.path("operationType")) is \(expected), not '\(typeName.prefix(80))'")
            }
            operationType = kind
            zone = try object.decodeRequired("zone")
        }
    }

    let operations: [Operation]

    init(_ object: RequestObject) throws(ServerError) {
        operations = try object.decodeRequiredArray("operations", maximumCount: RequestLimits.maximumBatch)
    }
}
#endif
