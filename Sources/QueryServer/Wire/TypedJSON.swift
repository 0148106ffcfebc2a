import Foundation
import PredicateLanguage

/// Values in the command line's JSON mapping (numbers, strings, booleans, null, arrays, and the
/// typed one-key objects `{"$date": ...}`, `{"$location": [...]}`, `{"$ref": ...}`,
/// `{"$bytes": ...}`), as `query.arguments` sends them. Not a second mapping: it hands the
/// ``JSONValue``'s bytes to the package's one JSON reader as `Value`s (`Value(jsonBytes:)`), where
/// ``WireValue`` reads CloudKit's `{value, type}` instead.
///
/// ```swift
/// try TypedJSON.value(["$date": "2024-05-01T12:00:00Z"])   // .date(...)
/// ```
enum TypedJSON {
    static func value(_ json: JSONValue) throws(ServerError) -> Value {
        do {
            return try Value(jsonBytes: json.jsonBytes())
        } catch {
            throw ServerError(.badRequest, "query.arguments: \(error)")
        }
    }
}
