import PredicateLanguage

/// `Location` as a `Codable` property of a model. In a record it is a location field; with other
/// coders (JSON) it is `{"latitude": ..., "longitude": ..., "altitude": ...}`.
///
/// ```swift
/// struct Shop: RecordModel { var name: String; var location: Location }
/// ```
extension Location: Codable {
    private enum CodingKeys: String, CodingKey {
        case latitude, longitude, altitude
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            latitude: try container.decode(Double.self, forKey: .latitude),
            longitude: try container.decode(Double.self, forKey: .longitude),
            altitude: try container.decodeIfPresent(Double.self, forKey: .altitude))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encodeIfPresent(altitude, forKey: .altitude)
    }
}
