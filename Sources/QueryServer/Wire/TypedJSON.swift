// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import PredicateLanguage

/// Values in the command line's JSON mapping (numbers, strings, booleans, null, arrays, and the
/// typed one-key objects `{"$date": ...}`, `{"$location": [...]}`, `{"$ref": ...}`,
/// `{"$bytes": ...}`), as `query.arguments` sends them. Not a second mapping: it hands the
/// ``JSONValue``'s bytes to the package's one JSON reader as `Value`s (`Value(jsonBytes:)`), where
/// ``WireValue`` reads CloudKit's `{value, type}` instead.
///
/// ```swift
/// try TypedJSON.value(["$date": "2024-05-01T12:00:00Z"], path: "query.arguments[0]")   // .date(...)
/// ```
enum TypedJSON {
    /// The values of an optional array member (`query.arguments`), each at its path.
    static func values(_ object: RequestObject, _ key: String) throws(ServerError) -> [Value] {
        guard let elements = try object.array(key) else { return [] }
        var values: [Value] = []
        values.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            values.append(try value(element, path: "\(object.path(key))[\(index)]"))
        }
        return values
    }

    /// One value in the command line's mapping; `path` names it in errors.
    static func value(_ json: JSONValue, path: String) throws(ServerError) -> Value {
        do {
            return try Value(jsonBytes: json.jsonBytes())
        } catch {
            throw ServerError(.badRequest, "\(path): \(error)")
        }
    }
}
#endif
