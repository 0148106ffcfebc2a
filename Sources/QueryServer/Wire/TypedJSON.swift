// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import PredicateLanguage

/// A value in the command line's JSON mapping (numbers, strings, booleans, null, arrays, and the
/// typed one-key objects `{"$date": ...}`, `{"$location": [...]}`, `{"$ref": ...}`,
/// `{"$bytes": ...}`), as `query.arguments` sends them. Not a second mapping: it hands the
/// ``JSONValue``'s bytes to the package's one JSON reader as a `Value` (`Value(jsonBytes:)`),
/// where ``WireValue`` reads CloudKit's `{value, type}` instead.
///
/// ```swift
/// let argument = try RequestBodyDecoder.decode(TypedJSON.self, from: ["$date": "2024-05-01T12:00:00Z"], at: "query.arguments[0]")
/// argument.value   // .date(...)
/// ```
struct TypedJSON: Decodable, JSONExpectation {
    static var expectation: String { "a JSON value" }
    static var arrayExpectation: String { "an array" }

    let value: Value

    init(from decoder: any Decoder) throws {
        let json = try SentJSON(from: decoder).json
        do {
            value = try Value(jsonBytes: json.jsonBytes())
        } catch {
            throw ServerError(.badRequest, "\(decoder.codingPath.jsonPath): \(error)")
        }
    }
}
#endif
