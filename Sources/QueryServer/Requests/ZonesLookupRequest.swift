// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The body of `zones/lookup`: `zones`, an array of zone IDs (`{zoneName}`, or the same nested in
/// `zoneID`).
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(ZonesLookupRequest.self, from: ["zones": [["zoneName": "staff"]]])
/// request.zones.map(\.zoneName)   // ["staff"]
/// ```
struct ZonesLookupRequest: Decodable {
    let zones: [ZoneIDRequest]
}
#endif
