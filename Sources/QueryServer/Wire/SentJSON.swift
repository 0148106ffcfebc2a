// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// A member of a request kept as it was sent: a part decoded later (each operation of
/// `subscriptions/modify`, which fails alone), answered back (a subscription's `query` and
/// `notificationInfo`), or read by the JSON it is (a field value, typed by its `type` or by its
/// JSON). As a member, null is missing, as for any other type.
///
/// ```swift
/// let info = try container.decodeIfPresent(SentJSON.self, forKey: .notificationInfo)?.json
/// ```
struct SentJSON: Decodable, JSONExpectation {
    static var expectation: String { "a JSON value" }
    static var arrayExpectation: String { "an array" }

    let json: JSONValue

    init(from decoder: any Decoder) throws {
        guard let decoder = decoder as? JSONValueDecoder else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a request is decoded from its JSON value"))
        }
        json = try decoder.sentValue()
    }
}
#endif
