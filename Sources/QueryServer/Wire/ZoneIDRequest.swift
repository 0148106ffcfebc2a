// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// A zone a request names: `{"zoneName": "..."}`, or the same inside a `zoneID` member (as
/// `zones/lookup` and `zones/modify` entries may nest it).
///
/// ```swift
/// let zone = try RequestBodyDecoder.decode(ZoneIDRequest.self, from: ["zoneID": ["zoneName": "staff"]], at: "zones[0]")
/// zone.zoneName   // "staff"
/// ```
struct ZoneIDRequest: Decodable {
    /// The zone's name as the client knows it.
    let zoneName: String
    /// The zone owner's user record name, if sent: in the shared database, it tells apart two
    /// owners' zones of one name.
    let ownerRecordName: String?

    private enum CodingKeys: String, CodingKey {
        case zoneName, zoneID, ownerRecordName
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if try container.decodeNil(forKey: .zoneName), let nested = try container.decodeIfPresent(ZoneIDRequest.self, forKey: .zoneID) {
            zoneName = nested.zoneName
            ownerRecordName = nested.ownerRecordName
        } else {
            zoneName = try container.decode(String.self, forKey: .zoneName)
            ownerRecordName = try container.decodeIfPresent(String.self, forKey: .ownerRecordName)
        }
    }
}
#endif
