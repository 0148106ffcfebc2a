import Foundation
import PredicateLanguage
import RecordStore

/// Records in CloudKit's wire shape, and back.
///
/// ```json
/// {"recordName": "2988507", "recordType": "City", "recordChangeTag": "1f3a9c2e",
///  "fields": {"name": {"value": "Paris", "type": "STRING"}},
///  "created": {"timestamp": 1714564800000, "userRecordName": "_defaultOwner", "deviceID": "query"},
///  "modified": {"timestamp": 1714564800000, "userRecordName": "_defaultOwner", "deviceID": "query"},
///  "deleted": false, "zoneID": {"zoneName": "_defaultZone", "ownerRecordName": "_defaultOwner"}}
/// ```
enum WireRecord {
    /// The owner and device names the server reports (the store keeps no users or devices).
    static let ownerName = "_defaultOwner"
    static let deviceName = "query"

    /// A record as JSON, with only `desiredKeys` among its fields when given.
    static func json(_ record: Record, zoneName: String, desiredKeys: Set<String>?, numbersAsStrings: Bool) -> JSONValue {
        var fields: [String: JSONValue] = [:]
        for (name, value) in record.fields {
            if let desiredKeys, !desiredKeys.contains(name) { continue }
            if let field = WireValue.json(value, numbersAsStrings: numbersAsStrings) { fields[name] = field }
        }
        var members: [String: JSONValue] = [
            "recordName": .string(record.recordID.recordName),
            "recordType": .string(record.recordType),
            "fields": .object(fields),
            "deleted": .bool(false),
            "zoneID": zoneJSON(zoneName),
        ]
        if let tag = record.recordChangeTag { members["recordChangeTag"] = .string(tag) }
        if let created = record.creationDate { members["created"] = stamp(created) }
        if let modified = record.modificationDate { members["modified"] = stamp(modified) }
        return .object(members)
    }

    /// A deleted record, as `records/modify` answers a delete.
    static func deletedJSON(recordName: String, zoneName: String) -> JSONValue {
        .object(["recordName": .string(recordName), "deleted": .bool(true), "zoneID": zoneJSON(zoneName)])
    }

    /// A zone ID dictionary.
    static func zoneJSON(_ zoneName: String) -> JSONValue {
        .object(["zoneName": .string(zoneName), "ownerRecordName": .string(ownerName)])
    }

    private static func stamp(_ date: Date) -> JSONValue {
        .object(["timestamp": WireValue.milliseconds(date), "userRecordName": .string(ownerName), "deviceID": .string(deviceName)])
    }

    /// The fields of a record dictionary a client sent (`fields`, absent meaning none).
    static func fields(of record: JSONValue) throws(ServerError) -> [String: Value] {
        guard let raw = record["fields"], !raw.isNull else { return [:] }
        guard case .object(let members) = raw else {
            throw ServerError(.badRequest, "a record's \"fields\" is an object of field values, not \(raw.kindName)")
        }
        var fields: [String: Value] = [:]
        fields.reserveCapacity(members.count)
        for (name, fieldValue) in members {
            fields[name] = try WireValue.value(from: fieldValue, field: name)
        }
        return fields
    }
}
