// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// What a request expects a member of a type to be, in the words of its `BAD_REQUEST`s:
/// `resultsLimit is a number from 1 to 200, not an array`, `desiredKeys is an array of strings,
/// not a string`. A type without it is expected to be an object (an array of them, "an array of
/// objects"); ``JSONValueDecoder`` asks the type it decodes only when a member does not fit.
///
/// ```swift
/// struct ResultsLimit: Decodable, JSONExpectation {
///     static var expectation: String { "a number from 1 to 200" }
/// }
/// ```
protocol JSONExpectation {
    /// What a member of the type is (`a string`).
    static var expectation: String { get }
    /// What an array of the type is (`an array of strings`).
    static var arrayExpectation: String { get }
}

extension JSONExpectation {
    static var expectation: String { "an object" }
    static var arrayExpectation: String { "an array of objects" }
}

/// The expectation of a type that has one.
func jsonExpectation(of type: Any.Type?) -> String? {
    (type as? any JSONExpectation.Type)?.expectation
}

extension Array: JSONExpectation where Element: Decodable {
    static var expectation: String {
        (Element.self as? any JSONExpectation.Type)?.arrayExpectation ?? "an array of objects"
    }
}

/// A JSON scalar a request member may be: read from a ``JSONValue`` as its accessors read it (an
/// integer or a number may come as a string from a `numbersAsStrings` client).
protocol JSONScalar: JSONExpectation {
    /// The value held, or nil when the JSON is not one.
    static func scalar(_ json: JSONValue) -> Self?
}

extension String: JSONScalar {
    static var expectation: String { "a string" }
    static var arrayExpectation: String { "an array of strings" }
    static func scalar(_ json: JSONValue) -> String? { json.stringValue }
}

extension Bool: JSONScalar {
    static var expectation: String { "a boolean" }
    static var arrayExpectation: String { "an array of booleans" }
    static func scalar(_ json: JSONValue) -> Bool? { json.boolValue }
}

extension Double: JSONScalar {
    static var expectation: String { "a number" }
    static var arrayExpectation: String { "an array of numbers" }
    static func scalar(_ json: JSONValue) -> Double? { json.doubleValue }
}

extension Float: JSONScalar {
    static var expectation: String { "a number" }
    static var arrayExpectation: String { "an array of numbers" }
    static func scalar(_ json: JSONValue) -> Float? { json.doubleValue.map { Float($0) } }
}

extension JSONScalar where Self: FixedWidthInteger {
    static var expectation: String { "an integer" }
    static var arrayExpectation: String { "an array of integers" }
    static func scalar(_ json: JSONValue) -> Self? { json.integerValue.flatMap { Self(exactly: $0) } }
}

extension Int: JSONScalar {}
extension Int8: JSONScalar {}
extension Int16: JSONScalar {}
extension Int32: JSONScalar {}
extension Int64: JSONScalar {}
extension UInt: JSONScalar {}
extension UInt8: JSONScalar {}
extension UInt16: JSONScalar {}
extension UInt32: JSONScalar {}
extension UInt64: JSONScalar {}
#endif
