// Part of the Server trait: without it, this module is empty.
#if Server

/// The body of `schema/fields/add` and `schema/indexes/remove`: the development `recordType`, its
/// `fieldName`, the field's `type` as the `schema` route writes it (`STRING`, `INT64`, ...,
/// `STRING_LIST`; only needed for a new field), the `indexes` added or removed (`queryable`,
/// `sortable`, `searchable`), and `dryRun` (true: the plan only).
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(SchemaChangeRequest.self, from: [
///     "recordType": "City", "fieldName": "mayor", "type": "STRING", "indexes": ["queryable"], "dryRun": true,
/// ])
/// request.typeName   // "STRING"
/// ```
struct SchemaChangeRequest: Decodable {
    /// The record type changed.
    let recordType: String
    /// The field added to, or whose indexes change.
    let fieldName: String
    /// The field's type as the `schema` route writes it (`STRING`, `INT64_LIST`), when given.
    let typeName: String?
    /// The index types added or removed.
    let indexes: Set<SchemaIndexType>
    /// Whether only the plan is asked for.
    let dryRun: Bool

    private enum CodingKeys: String, CodingKey { case recordType, fieldName, type, indexes, dryRun }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        recordType = try container.decode(String.self, forKey: .recordType, expected: "the name of a record type of the development schema")
        fieldName = try container.decode(String.self, forKey: .fieldName, expected: "the name of a field")
        typeName = try container.decodeIfPresent(String.self, forKey: .type, expected: "a field type as the schema route writes it (STRING, INT64, ...)")
        indexes = Set(try container.decodeIfPresent([SchemaIndexType].self, forKey: .indexes, expected: "index types: queryable, sortable, searchable") ?? [])
        dryRun = try container.decodeIfPresent(Bool.self, forKey: .dryRun, expected: "true for the plan only") ?? false
    }
}
#endif
