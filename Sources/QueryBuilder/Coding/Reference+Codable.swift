import PredicateLanguage

/// `Reference` as a `Codable` property of a model. In a record it is a reference field; with other
/// coders (JSON) it is `{"recordName": ..., "zoneName": ...}`.
///
/// ```swift
/// struct Order: RecordModel { var customer: Reference }
/// ```
extension Reference: Codable {
    private enum CodingKeys: String, CodingKey {
        case recordName, zoneName
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            recordName: try container.decode(String.self, forKey: .recordName),
            zoneName: try container.decodeIfPresent(String.self, forKey: .zoneName) ?? Reference.defaultZoneName)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(recordName, forKey: .recordName)
        try container.encode(zoneName, forKey: .zoneName)
    }
}
