// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

/// The body of `records/modify`: `operations` (at most 200 of ``Operation``), `zoneID`,
/// `atomic` (default true), `numbersAsStrings`. What each operation needs beyond its types (a
/// change tag for an update, a record type for a create) is checked by ``ModifyOperation``.
///
/// ```swift
/// let request = try RecordsModifyRequest(body: ["operations": [["operationType": "forceDelete", "record": ["recordName": "r1"]]]])
/// request.operations[0].operationType   // .forceDelete
/// ```
struct RecordsModifyRequest: RequestDecodable {
    /// One operation: `{operationType, record: {recordName, recordType, recordChangeTag, fields}, desiredKeys}`.
    struct Operation: RequestDecodable {
        let operationType: ModifyOperation.Kind
        let recordName: String?
        let recordType: String?
        let recordChangeTag: String?
        /// The record's fields (none for a deletion, which reads none).
        let fields: [String: Value]
        /// The fields whose references carry CloudKit's `DELETE_SELF` action (``ReferenceAction``).
        let deleteSelfFields: Set<String>
        let desiredKeys: [String]?
        /// Where the operation is in the body (`operations[3]`).
        let path: String

        init(_ object: RequestObject) throws(ServerError) {
            path = object.path
            let expected = "one of " + ModifyOperation.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            let typeName = try object.requiredString("operationType", expected)
            guard let kind = ModifyOperation.Kind(rawValue: typeName) else {
                throw ServerError(.badRequest, "\(object.path("operationType")) is \(expected), not '\(typeName.prefix(80))'")
            }
            operationType = kind
            let record = try RequestObject(try object.required("record", "an object"), path: object.path("record"))
            recordName = try record.string("recordName")
            recordType = try record.string("recordType")
            recordChangeTag = try record.string("recordChangeTag")
            let decoded: (values: [String: Value], deleteSelf: Set<String>) = kind.isDeletion ? ([:], []) : try Self.fields(of: record)
            fields = decoded.values
            deleteSelfFields = decoded.deleteSelf
            desiredKeys = try object.strings("desiredKeys")
        }

        /// The `fields` of a record object (absent meaning none), each a field value at its path,
        /// and the names of those whose references carry `DELETE_SELF`.
        private static func fields(of record: RequestObject) throws(ServerError) -> (values: [String: Value], deleteSelf: Set<String>) {
            guard let fields = try record.object("fields") else { return ([:], []) }
            var values: [String: Value] = [:]
            var deleteSelf = Set<String>()
            values.reserveCapacity(fields.members.count)
            for (name, fieldValue) in fields.members {
                guard name != DeleteSelfReferences.fieldName else {
                    throw ServerError(.badRequest, "\(fields.path(name)): the field name is reserved (the server keeps the references' DELETE_SELF actions in it)")
                }
                values[name] = try WireValue.value(from: fieldValue, path: fields.path(name))
                if try ReferenceAction.of(fieldValue, path: fields.path(name)) == .deleteSelf { deleteSelf.insert(name) }
            }
            return (values, deleteSelf)
        }
    }

    let zoneID: ZoneIDRequest?
    let numbersAsStrings: Bool
    let atomic: Bool
    let operations: [Operation]

    init(_ object: RequestObject) throws(ServerError) {
        zoneID = try object.decode("zoneID")
        numbersAsStrings = try object.bool("numbersAsStrings") ?? false
        atomic = try object.bool("atomic") ?? true
        operations = try object.decodeRequiredArray("operations", maximumCount: RequestLimits.maximumBatch)
    }
}
#endif
