// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

/// The body of `records/modify`: `operations` (at most 200 of ``Operation``), `zoneID`,
/// `atomic` (default true), `numbersAsStrings`. What each operation needs beyond its types (a
/// change tag for an update, a record type for a create) is checked by ``ModifyOperation``.
///
/// ```swift
/// let request = try RequestBodyDecoder.decode(RecordsModifyRequest.self, from: ["operations": [["operationType": "forceDelete", "record": ["recordName": "r1"]]]])
/// request.operations[0].operationType   // .forceDelete
/// ```
struct RecordsModifyRequest: Decodable {
    /// One operation: `{operationType, record: {recordName, recordType, recordChangeTag, fields}, desiredKeys}`.
    struct Operation: Decodable {
        let operationType: ModifyOperation.Kind
        let recordName: String?
        let recordType: String?
        let recordChangeTag: String?
        /// The record's fields (none for a deletion, which reads none).
        let fields: [String: Value]
        /// The fields whose references carry CloudKit's `DELETE_SELF` action (``ReferenceAction``).
        let deleteSelfFields: Set<String>
        let desiredKeys: [String]?
        /// The record's `parent` (`{recordName}`, in the record's zone): nil when absent, or
        /// `.some(nil)` when sent as null (no parent).
        let parentRecordName: String??
        /// The share's members, for a record of type `cloudkit.share` (``ShareRequest``).
        let share: ShareRequest?
        /// Where the operation is in the body (`operations[3]`).
        let path: String

        private enum CodingKeys: String, CodingKey {
            case operationType, record, desiredKeys
        }

        /// What `operationType` may be, as its errors say (spelled once, not for every operation).
        private static let operationTypes = "one of " + ModifyOperation.Kind.allCases.map(\.rawValue).joined(separator: ", ")

        private enum RecordKeys: String, CodingKey {
            case recordName, recordType, recordChangeTag, fields, parent
        }

        private enum ParentKeys: String, CodingKey {
            case recordName
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            path = decoder.codingPath.jsonPath
            let expected = Self.operationTypes
            let typeName = try container.decode(String.self, forKey: .operationType, expected: expected)
            guard let kind = ModifyOperation.Kind(rawValue: typeName) else {
                throw ServerError(.badRequest, "\(container.path(.operationType)) is \(expected), not '\(typeName.prefix(80))'")
            }
            operationType = kind
            let record = try container.nestedContainer(keyedBy: RecordKeys.self, forKey: .record)
            recordName = try record.decodeIfPresent(String.self, forKey: .recordName)
            recordType = try record.decodeIfPresent(String.self, forKey: .recordType)
            recordChangeTag = try record.decodeIfPresent(String.self, forKey: .recordChangeTag)
            let decoded: (values: [String: Value], deleteSelf: Set<String>) = kind.isDeletion ? ([:], []) : try Self.fields(of: record)
            fields = decoded.values
            deleteSelfFields = decoded.deleteSelf
            desiredKeys = try container.decodeIfPresent([String].self, forKey: .desiredKeys)
            if !record.contains(.parent) {
                parentRecordName = nil
            } else if try record.decodeNil(forKey: .parent) {
                parentRecordName = .some(nil)
            } else {
                let parent = try record.nestedContainer(keyedBy: ParentKeys.self, forKey: .parent)
                parentRecordName = .some(try parent.decode(String.self, forKey: .recordName, expected: "the parent record's name"))
            }
            if let type = recordType, RecordShare.wireRecordTypes.contains(type), !kind.isDeletion {
                share = try container.decode(ShareRequest.self, forKey: .record)
            } else {
                share = nil
            }
        }

        /// The `fields` of a record object (absent meaning none), each a field value at its path,
        /// and the names of those whose references carry `DELETE_SELF`.
        private static func fields(of record: KeyedDecodingContainer<RecordKeys>) throws -> (values: [String: Value], deleteSelf: Set<String>) {
            guard try !record.decodeNil(forKey: .fields) else { return ([:], []) }
            let fields = try record.nestedContainer(keyedBy: JSONKey.self, forKey: .fields)
            var values: [String: Value] = [:]
            var deleteSelf = Set<String>()
            for name in fields.allKeys {
                guard name.stringValue != DeleteSelfReferences.fieldName else {
                    throw ServerError(.badRequest, "\(fields.path(name)): the field name is reserved (the server keeps the references' DELETE_SELF actions in it)")
                }
                guard name.stringValue != Record.parentFieldName else {
                    throw ServerError(.badRequest, "\(fields.path(name)): the field name is reserved (the store keeps the record's parent in it)")
                }
                // A field value is an object: null is of the wrong kind here, not a missing member.
                guard try !fields.decodeNil(forKey: name) else { throw ServerError(.badRequest, "\(fields.path(name)) is an object, not null") }
                let field = try fields.decode(WireFieldValue.self, forKey: name)
                values[name.stringValue] = field.value
                if try ReferenceAction.of(field.json, path: fields.path(name)) == .deleteSelf { deleteSelf.insert(name.stringValue) }
            }
            return (values, deleteSelf)
        }
    }

    let zoneID: ZoneIDRequest?
    let numbersAsStrings: Bool
    let atomic: Bool
    let operations: [Operation]

    private enum CodingKeys: String, CodingKey {
        case zoneID, numbersAsStrings, atomic, operations
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        zoneID = try container.decodeIfPresent(ZoneIDRequest.self, forKey: .zoneID)
        numbersAsStrings = try container.decodeIfPresent(Bool.self, forKey: .numbersAsStrings) ?? false
        atomic = try container.decodeIfPresent(Bool.self, forKey: .atomic) ?? true
        operations = try container.decodeBatch([Operation].self, forKey: .operations, maximumCount: RequestLimits.maximumBatch)
    }
}
#endif
