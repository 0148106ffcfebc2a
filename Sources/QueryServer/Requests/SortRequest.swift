// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// One sort of `query.sortBy`: `{fieldName | systemFieldName, ascending, relativeLocation}`, the
/// last making a sort by distance from a point (a location, or a field value `{value, type:
/// LOCATION}`).
///
/// ```swift
/// let sort = try SortRequest(RequestObject(["fieldName": "population", "ascending": false], path: "query.sortBy[0]"))
/// sort.ascending   // false
/// ```
struct SortRequest: RequestDecodable {
    let field: FieldReference
    let ascending: Bool
    let relativeLocation: Location?

    init(_ object: RequestObject) throws(ServerError) {
        field = try FieldReference(object)
        ascending = try object.bool("ascending") ?? true
        if let relative = object["relativeLocation"] {
            // Either a location dictionary or a field value {value: location, type: LOCATION}.
            let path = object.path("relativeLocation")
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
