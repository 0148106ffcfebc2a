// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The location dictionary of a `LOCATION` field value (or of a sort's `relativeLocation`):
/// `latitude` and `longitude` in degrees, `altitude` in meters.
///
/// ```swift
/// try RequestBodyDecoder.decode(LocationDictionary.self, from: ["latitude": 48.85, "longitude": 2.35], at: "fields.place.value").location
/// ```
struct LocationDictionary: Decodable, JSONExpectation {
    static var expectation: String { #"a location {"latitude": number, "longitude": number}"# }

    let location: Location

    private enum CodingKeys: String, CodingKey {
        case latitude, longitude, altitude
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let path = decoder.codingPath.jsonPath
        guard let latitude = try container.decodeIfPresent(Double.self, forKey: .latitude),
              let longitude = try container.decodeIfPresent(Double.self, forKey: .longitude) else {
            throw ServerError(.badRequest, "\(path) is \(Self.expectation)")
        }
        location = Location(latitude: latitude, longitude: longitude, altitude: try container.decodeIfPresent(Double.self, forKey: .altitude))
        guard location.isValid else {
            throw ServerError(.badRequest, "\(path): latitude must be within ±90 and longitude within ±180 degrees")
        }
    }
}

/// The reference dictionary of a `REFERENCE` field value: `recordName`, and `zoneID.zoneName`
/// (the default zone when absent); its `action` is read by ``ReferenceAction``.
///
/// ```swift
/// try RequestBodyDecoder.decode(ReferenceDictionary.self, from: ["recordName": "paris"], at: "fields.city.value").reference
/// ```
struct ReferenceDictionary: Decodable, JSONExpectation {
    static var expectation: String { #"a reference {"recordName": string, "zoneID": {"zoneName": string}}"# }

    let reference: Reference

    private enum CodingKeys: String, CodingKey {
        case recordName, zoneID
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .recordName)
        guard !name.isEmpty else { throw ServerError(.badRequest, "\(container.path(.recordName)) is empty") }
        let zone = try container.decodeIfPresent(ZoneIDRequest.self, forKey: .zoneID)?.zoneName ?? Reference.defaultZoneName
        guard !AssetWire.isReserved(zoneName: zone) else {
            throw ServerError(.badRequest, "\(container.path(.zoneID)): the zone '\(zone)' is reserved for assets (send an ASSETID value)")
        }
        reference = Reference(recordName: name, zoneName: zone)
    }
}

/// The asset dictionary of an `ASSETID` field value a client sends: what `assets/upload`
/// answered, `{fileChecksum, size, receipt}` (``AssetWire/pendingValue(_:path:)``).
///
/// ```swift
/// try RequestBodyDecoder.decode(AssetDictionary.self, from: ["receipt": receipt], at: "fields.file.value").receipt
/// ```
struct AssetDictionary: Decodable, JSONExpectation {
    static var expectation: String { #"an asset {"fileChecksum": string, "size": integer, "receipt": string} (ASSETID, from assets/upload)"# }

    let receipt: String
    /// The checksum given, empty when none was.
    let fileChecksum: String
    let size: Int64?

    private enum CodingKeys: String, CodingKey {
        case receipt, fileChecksum, size
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let receipt = try container.decodeIfPresent(String.self, forKey: .receipt, expected: "the receipt of the upload"), !receipt.isEmpty else {
            throw ServerError(.badRequest, "\(container.path(.receipt)) is missing: an ASSETID value needs the receipt its upload answered")
        }
        self.receipt = receipt
        fileChecksum = try container.decodeIfPresent(String.self, forKey: .fileChecksum, expected: "the file's checksum (base64)") ?? ""
        size = try container.decodeIfPresent(Int64.self, forKey: .size)
    }
}
#endif
