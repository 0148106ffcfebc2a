// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

/// The body of `schema/fields/add` and `schema/indexes/remove`: the development `recordType`, its
/// `fieldName`, the field's `type` as the `schema` route writes it (`STRING`, `INT64`, ...,
/// `STRING_LIST`; only needed for a new field), the `indexes` added or removed (`queryable`,
/// `sortable`, `searchable`), and `dryRun` (true: the plan only).
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(SchemaChangeRequest.self, from: [
///     "recordType": "City", "fieldName": "mayor", "type": "STRING", "indexes": ["queryable"], "dryRun": true,
/// ])
/// request.fieldType   // .string
/// ```
struct SchemaChangeRequest: Decodable {
    /// The record type changed.
    let recordType: String
    /// The field added to, or whose indexes change.
    let fieldName: String
    /// The field's type, when given.
    let fieldType: FieldType?
    /// The index types added or removed.
    let indexes: Set<SchemaIndexType>
    /// Whether only the plan is asked for.
    let dryRun: Bool

    private enum CodingKeys: String, CodingKey { case recordType, fieldName, type, indexes, dryRun }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        recordType = try container.decode(String.self, forKey: .recordType, expected: "the name of a record type of the development schema")
        fieldName = try container.decode(String.self, forKey: .fieldName, expected: "the name of a field")
        if let name = try container.decodeIfPresent(String.self, forKey: .type, expected: "a field type as the schema route writes it (STRING, INT64, ...)") {
            guard let type = Self.fieldType(wireName: name) else {
                throw ServerError(.badRequest, "'\(name)' is not a field type: one of \(Self.wireNames.joined(separator: ", "))")
            }
            fieldType = type
        } else {
            fieldType = nil
        }
        indexes = Set(try container.decodeIfPresent([SchemaIndexType].self, forKey: .indexes, expected: "index types: queryable, sortable, searchable") ?? [])
        dryRun = try container.decodeIfPresent(Bool.self, forKey: .dryRun, expected: "true for the plan only") ?? false
    }

    /// The store types a field can be given, by their wire names (`bool` travels as `INT64`).
    private static let fieldTypes: [FieldType] = {
        let scalars: [FieldType] = [.string, .int64, .double, .date, .bytes, .location, .reference]
        return scalars + scalars.map { FieldType.list($0) }
    }()

    /// The wire names a request may give, as the `schema` route writes them.
    static let wireNames = fieldTypes.map(CloudKitService.wireTypeName)

    /// The store type of a wire name (`STRING_LIST`: a list of strings), or nil.
    static func fieldType(wireName: String) -> FieldType? {
        fieldTypes.first { CloudKitService.wireTypeName($0) == wireName }
    }
}
#endif
