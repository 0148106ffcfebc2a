// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// One filter of `query.filterBy`: `{comparator, fieldName | systemFieldName, fieldValue:
/// {value, type}, distance}`. The field value is read here (``WireFieldValue``, as its field
/// takes it); whether it fits the type the schema gives its field is checked by `QueryFilter`,
/// which has the schema.
///
/// ```swift
/// let filter = try RequestBodyDecoder.decode(FilterRequest.self, from: ["comparator": "EQUALS", "fieldName": "countrycode",
///                                                                       "fieldValue": ["value": "FR"]], at: "query.filterBy[0]")
/// filter.value   // .string("FR")
/// ```
struct FilterRequest: Decodable {
    let comparator: String
    let field: FieldReference
    /// The value compared with; a reference's zone is the namespace's once the query is stored
    /// (``RecordQueryRequest/stored(in:)``).
    var value: Value
    /// Meters, for a comparison of the distance from a location field.
    let distance: Double?
    /// Where the filter is in the body (`query.filterBy[0]`), for the errors of its translation.
    let path: String

    private enum CodingKeys: String, CodingKey {
        case comparator, fieldValue, distance
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = decoder.codingPath.jsonPath
        comparator = try container.decode(String.self, forKey: .comparator)
        field = try FieldReference(from: decoder)
        let fieldValue = try container.decode(WireFieldValue.self, forKey: .fieldValue, expected: #"a field value {"value": ..., "type": ...}"#)
        value = try field.value(fieldValue.value, path: container.path(.fieldValue))
        distance = try container.decodeIfPresent(Double.self, forKey: .distance, expected: "a number of meters")
    }
}
#endif
