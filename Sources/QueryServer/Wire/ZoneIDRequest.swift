// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// A zone a request names: `{"zoneName": "..."}`, or the same inside a `zoneID` member (as
/// `zones/lookup` and `zones/modify` entries may nest it).
///
/// ```swift
/// let zone = try ZoneIDRequest(RequestObject(["zoneID": ["zoneName": "staff"]], path: "zones[0]"))
/// zone.zoneName   // "staff"
/// ```
struct ZoneIDRequest: RequestDecodable {
    /// The zone's name as the client knows it.
    let zoneName: String

    init(_ object: RequestObject) throws(ServerError) {
        if !object.has("zoneName"), let nested: ZoneIDRequest = try object.decode("zoneID") {
            zoneName = nested.zoneName
        } else {
            zoneName = try object.requiredString("zoneName")
        }
    }
}
#endif
