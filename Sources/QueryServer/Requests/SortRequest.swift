// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// One sort of `query.sortBy`: `{fieldName | systemFieldName, ascending, relativeLocation}`, the
/// last making a sort by distance from a point (a location, or a field value `{value, type:
/// LOCATION}`).
///
/// ```swift
/// let sort = try RequestBodyDecoder.decode(SortRequest.self, from: ["fieldName": "population", "ascending": false], at: "query.sortBy[0]")
/// sort.ascending   // false
/// ```
struct SortRequest: Decodable {
    let field: FieldReference
    let ascending: Bool
    let relativeLocation: Location?

    private enum CodingKeys: String, CodingKey {
        case ascending, relativeLocation
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        field = try FieldReference(from: decoder)
        ascending = try container.decodeIfPresent(Bool.self, forKey: .ascending) ?? true
        if let relative = try container.decodeIfPresent(SentJSON.self, forKey: .relativeLocation)?.json {
            // Either a location dictionary or a field value {value: location, type: LOCATION}.
            let path = container.path(.relativeLocation)
            guard case .location(let origin) = try WireValue.location(relative["value"] ?? relative, path: path) else {
                throw ServerError(.badRequest, "\(path) is a location")
            }
            relativeLocation = origin
        } else {
            relativeLocation = nil
        }
    }
}
#endif
