// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// One filter of `query.filterBy`: `{comparator, fieldName | systemFieldName, fieldValue:
/// {value, type}, distance}`. The field value is read here (``WireValue``, as its field takes
/// it); whether it fits the type the schema gives its field is checked by `QueryFilter`, which
/// has the schema.
///
/// ```swift
/// let filter = try FilterRequest(RequestObject(["comparator": "EQUALS", "fieldName": "countrycode",
///                                               "fieldValue": ["value": "FR"]], path: "query.filterBy[0]"))
/// filter.value   // .string("FR")
/// ```
struct FilterRequest: RequestDecodable {
    let comparator: String
    let field: FieldReference
    /// The value compared with; a reference's zone is the namespace's once the query is stored
    /// (``RecordQueryRequest/stored(in:)``).
    var value: Value
    /// Meters, for a comparison of the distance from a location field.
    let distance: Double?
    /// Where the filter is in the body (`query.filterBy[0]`), for the errors of its translation.
    let path: String

    init(_ object: RequestObject) throws(ServerError) {
        path = object.path
        comparator = try object.requiredString("comparator")
        field = try FieldReference(object)
        let fieldValue = try object.required("fieldValue", "a field value {\"value\": ..., \"type\": ...}")
        value = try field.value(from: fieldValue, path: object.path("fieldValue"))
        distance = try object.number("distance", "a number of meters")
    }
}
#endif
