// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// A field value dictionary of a request, `{"value": ..., "type": "..."}` (a record's field, a
/// filter's `fieldValue`), decoded into a store `Value`: its `value` read as its `type` says, or
/// typed by its JSON when it has none (``WireValue/value(_:type:path:)``). A null `value` is a
/// value (it clears a field); only an absent one is missing.
///
/// ```swift
/// let field = try RequestBodyDecoder.decode(WireFieldValue.self, from: ["value": 42, "type": "INT64"], at: "fields.population")
/// field.value   // .int(42)
/// ```
struct WireFieldValue: Decodable {
    let value: Value
    /// The dictionary as sent (its references' action is read from it, ``ReferenceAction``).
    let json: JSONValue

    private enum CodingKeys: String, CodingKey {
        case value, type
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        json = try SentJSON(from: decoder).json
        guard let raw = json["value"] else { throw container.missing(.value, expected: "the field's value") }
        let type = try container.decodeIfPresent(String.self, forKey: .type, expected: #"a field type such as "STRING""#)
        value = try WireValue.value(raw, type: type, path: container.path(.value))
    }
}
#endif
