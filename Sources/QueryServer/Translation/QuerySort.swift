import PredicateLanguage
import RecordStore

/// CloudKit's `sortBy` as the store's sorts: `{fieldName | systemFieldName, ascending,
/// relativeLocation}`, the last making a sort by distance from a point (nearest first when
/// ascending).
///
/// ```swift
/// try QuerySort.sorts(from: [["fieldName": "population", "ascending": false]])   // [Sort("population", ascending: false)]
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `Sort`, `SortDirection`
/// and `SortComparison`.
enum QuerySort {
    static func sorts(from sortBy: JSONValue?) throws(ServerError) -> [Sort] {
        guard let sortBy, !sortBy.isNull else { return [] }
        guard let entries = sortBy.arrayValue else { throw ServerError(.badRequest, "query.sortBy is an array of sorts, not \(sortBy.kindName)") }
        var sorts: [Sort] = []
        for (index, entry) in entries.enumerated() {
            let place = "query.sortBy[\(index)]"
            guard case .object = entry else { throw ServerError(.badRequest, "\(place) is an object, not \(entry.kindName)") }
            let field = try FieldReference(entry, place: place)
            let ascending: Bool
            switch entry["ascending"] {
            case nil, .null?: ascending = true
            case .bool(let flag)?: ascending = flag
            case let other?: throw ServerError(.badRequest, "\(place).ascending is a boolean, not \(other.kindName)")
            }
            guard let key = field.sortKey else { continue }
            if let relative = entry["relativeLocation"], !relative.isNull {
                // Either a location dictionary or a field value {value: location, type: LOCATION}.
                let dictionary = relative["value"] ?? relative
                guard case .location(let origin) = try WireValue.location(dictionary, field: "\(place).relativeLocation") else {
                    throw ServerError(.badRequest, "\(place).relativeLocation is a location")
                }
                sorts.append(Sort.distance(from: origin, key: key, ascending: ascending))
            } else {
                sorts.append(Sort(key, ascending: ascending))
            }
        }
        return sorts
    }
}
