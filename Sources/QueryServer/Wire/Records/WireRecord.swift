// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import PredicateLanguage
import RecordStore

/// Records in CloudKit's wire shape, and back: a store `Record` as CloudKit's record object (its
/// fields through ``WireValue``), written straight into bytes for `records/query`. The command
/// line's record object (`RecordJSON` in `query`) is another shape: the store's own, with the
/// `{"$date": ...}` mapping.
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

    /// A record as JSON, with only `desiredKeys` among its fields when given: what
    /// ``write(_:zoneName:desiredKeys:numbersAsStrings:into:)`` writes, read back, so the record's
    /// shape is spelled once.
    static func json(_ record: Record, zoneName: String, desiredKeys: Set<String>?, numbersAsStrings: Bool, style: RecordAnswerStyle = .plain) -> JSONValue {
        var bytes: [UInt8] = []
        write(record, zoneName: zoneName, desiredKeys: desiredKeys, numbersAsStrings: numbersAsStrings, style: style, into: &bytes)
        // The writer's output is JSON by construction; null only if that were ever broken.
        return (try? JSONValue(parsing: bytes)) ?? .null
    }

    /// Writes a record's object straight into bytes, without building it (the hot path of
    /// `records/query`): `recordName`, `recordType`, `recordChangeTag`, `deleted`, `zoneID`,
    /// `created`, `modified` and `fields`. `style` names the owner and links assets
    /// (``RecordAnswerStyle``).
    static func write(
        _ record: Record, zoneName: String, desiredKeys: Set<String>?, numbersAsStrings: Bool, style: RecordAnswerStyle = .plain,
        into bytes: inout [UInt8]
    ) {
        bytes.append(contentsOf: #"{"recordName":"#.utf8)
        JSONWriter.writeString(record.recordID.recordName, into: &bytes)
        bytes.append(contentsOf: #","recordType":"#.utf8)
        JSONWriter.writeString(record.recordType, into: &bytes)
        if let tag = record.recordChangeTag {
            bytes.append(contentsOf: #","recordChangeTag":"#.utf8)
            JSONWriter.writeString(tag, into: &bytes)
        }
        bytes.append(contentsOf: #","deleted":false,"zoneID":{"zoneName":"#.utf8)
        JSONWriter.writeString(zoneName, into: &bytes)
        bytes.append(contentsOf: #","ownerRecordName":"#.utf8)
        JSONWriter.writeString(style.zoneOwner, into: &bytes)
        bytes.append(UInt8(ascii: "}"))
        // CloudKit's `parent` and `share`: a record's place in a shared hierarchy, by name (both
        // are in the record's own zone).
        if let parent = record.parent {
            bytes.append(contentsOf: #","parent":{"recordName":"#.utf8)
            JSONWriter.writeString(parent.recordName, into: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        if !style.rootShares.isEmpty, let share = style.rootShares[record.recordID] {
            bytes.append(contentsOf: #","share":{"recordName":"#.utf8)
            JSONWriter.writeString(share.recordName, into: &bytes)
            bytes.append(contentsOf: #","zoneID":{"zoneName":"#.utf8)
            JSONWriter.writeString(zoneName, into: &bytes)
            bytes.append(contentsOf: #","ownerRecordName":"#.utf8)
            JSONWriter.writeString(style.zoneOwner, into: &bytes)
            bytes.append(contentsOf: "}}".utf8)
        }
        if let created = record.creationDate {
            bytes.append(contentsOf: #","created":"#.utf8)
            writeStamp(created, owner: record.creatorUserRecordName ?? style.owner, into: &bytes)
        }
        if let modified = record.modificationDate {
            bytes.append(contentsOf: #","modified":"#.utf8)
            writeStamp(modified, owner: record.lastModifiedUserRecordName ?? style.owner, into: &bytes)
        }
        bytes.append(contentsOf: #","fields":{"#.utf8)
        var first = true
        // The reserved fields are not fields on the wire: `___deleteSelf` gives the references of the fields it names
        // DELETE_SELF; `___parent` is the record's parent (CloudKit's top-level `parent`, written above).
        let deleteSelf = DeleteSelfReferences.fields(of: record)
        for (name, value) in record.fields where name != DeleteSelfReferences.fieldName && name != Record.parentFieldName {
            if let desiredKeys, !desiredKeys.contains(name) { continue }
            if let asset = AssetWire.json(value, named: name, of: record, style: style) {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                JSONWriter.writeString(name, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                asset.write(into: &bytes)
                continue
            }
            guard WireValue.hasWireType(value) else { continue }
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            JSONWriter.writeString(name, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            let clientValue = style.namespace?.clientValue(value) ?? value
            WireValue.write(clientValue, numbersAsStrings: numbersAsStrings, action: deleteSelf.contains(name) ? .deleteSelf : .none, into: &bytes)
        }
        bytes.append(contentsOf: "}}".utf8)
    }

    /// A `created` or `modified` object: `{timestamp, userRecordName, deviceID}`.
    private static func writeStamp(_ date: Date, owner: String, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"timestamp":"#.utf8)
        WireValue.milliseconds(date).write(into: &bytes)
        bytes.append(contentsOf: #","userRecordName":"#.utf8)
        JSONWriter.writeString(owner, into: &bytes)
        bytes.append(contentsOf: #","deviceID":"#.utf8)
        JSONWriter.writeString(deviceName, into: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    /// A deleted record, as `records/modify` answers a delete.
    static func deletedJSON(recordName: String, zoneName: String) -> JSONValue {
        .object(["recordName": .string(recordName), "deleted": .bool(true), "zoneID": zoneJSON(zoneName)])
    }

    /// A zone ID dictionary.
    static func zoneJSON(_ zoneName: String) -> JSONValue {
        .object(["zoneName": .string(zoneName), "ownerRecordName": .string(ownerName)])
    }
}
#endif
