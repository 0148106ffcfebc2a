// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of `zones/lookup`: `zones`, an array of zone IDs (`{zoneName}`, or the same nested in
/// `zoneID`).
///
/// ```swift
/// let request = try ZonesLookupRequest(body: ["zones": [["zoneName": "staff"]]])
/// request.zones.map(\.zoneName)   // ["staff"]
/// ```
struct ZonesLookupRequest: RequestDecodable {
    let zones: [ZoneIDRequest]

    init(_ object: RequestObject) throws(ServerError) {
        zones = try object.decodeRequiredArray("zones")
    }
}
#endif
