import Foundation
import PredicateLanguage

/// How shares are kept as records, so that every engine keeps them and every server over one
/// store sees a change at once:
///
/// - the share itself: a record of type ``RecordShare/storedRecordType`` (`QueryShare`) in the
///   zone it shares, named as the share (``RecordShare/recordID``), as CloudKit keeps a
///   `cloudkit.share` record beside the records it shares. Its fields: `root` (a reference to
///   the root record, which carries `DELETE_SELF`, so deleting the root deletes the share; none
///   for a zone-wide share), `owner`, `publicPermission`, `shortGUID`, and `participants` (the
///   participants as a JSON document). Deleting the zone deletes its shares. This record is the
///   truth: permissions are resolved from it alone.
/// - an index entry: a record of type `QueryShareIndex` in the system zone ``zone`` (`shares/index`),
///   named by the share's short GUID, with the share's `zone` and record name (`share`), its
///   `owner`, and the user record names (`users`) and lowercased email addresses (`emails`) of
///   its participants. It answers what no single zone can: a share by short GUID, the shares
///   shared with a user, the shares a user owns. It is written in the same transaction as the
///   share; an entry whose share is gone (its zone or root deleted) or whose share now has
///   another short GUID is ignored when read.
///
/// ```swift
/// let record = try ShareRecords.record(of: share, storing: nil)
/// let back = try ShareRecords.share(from: record)
/// ```
enum ShareRecords {
    /// The system zone of the index entries. Its name holds a `/`, as the server's own zones'
    /// (`users/accounts`) do: no client zone name does, so no database of `query serve` lists it.
    static let zone = SystemZones.shareIndex
    /// The record type of the index entries (one of ``SystemRecordTypes``).
    static let indexRecordType = "QueryShareIndex"

    /// The identifier of a share's index entry.
    static func indexID(shortGUID: String) -> RecordID {
        RecordID(recordName: shortGUID, zoneID: zone)
    }

    /// A new short GUID: 16 random bytes in base64url (22 characters of `A-Z a-z 0-9 - _`), whose
    /// first character is a letter or a digit, so that a command line (`query shares accept GUID`)
    /// never reads a GUID as an option. The first character holds the first byte's top six bits;
    /// `-` and `_` are the values 62 and 63, so the first byte is drawn below 248.
    static func newShortGUID() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[0] = UInt8.random(in: 0...247, using: &generator)
        return Base64URL.encode(bytes)
    }

    /// The record of a share: the stored record changed (its metadata kept), or a new one. The
    /// record carries the share's change tag, so that the save is checked against it.
    static func record(of share: RecordShare, storing stored: Record?) throws(RecordStoreError) -> Record {
        var record = stored ?? Record(recordType: RecordShare.storedRecordType, recordID: share.recordID)
        record.recordChangeTag = share.recordChangeTag
        record.fields = [:]
        if let root = share.rootRecordID {
            record["root"] = .reference(root.reference)
            DeleteSelfReferences.setFields(["root"], on: &record)
        }
        record["owner"] = .string(share.owner)
        record["publicPermission"] = .string(share.publicPermission.rawValue)
        record["shortGUID"] = .string(share.shortGUID)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do {
            record["participants"] = .string(String(decoding: try encoder.encode(share.participants), as: UTF8.self))
        } catch {
            throw .storage("the participants of share \(share.recordID) do not encode: \(error)")
        }
        return record
    }

    /// The share a stored record holds; nil for a record of another type.
    static func share(from record: Record) throws(RecordStoreError) -> RecordShare? {
        guard record.recordType == RecordShare.storedRecordType else { return nil }
        guard case .string(let owner)? = record["owner"], case .string(let guid)? = record["shortGUID"],
              case .string(let permissionName)? = record["publicPermission"], let permission = SharePermission(rawValue: permissionName),
              case .string(let json)? = record["participants"]
        else { throw .storage("the share record \(record.recordID) lacks its owner, short GUID, public permission or participants") }
        let participants: [ShareParticipant]
        do {
            participants = try JSONDecoder().decode([ShareParticipant].self, from: Data(json.utf8))
        } catch {
            throw .storage("the participants of share record \(record.recordID) do not decode: \(error)")
        }
        var share: RecordShare
        if case .reference(let root)? = record["root"] {
            share = RecordShare(
                rootRecordID: RecordID(recordName: root.recordName, zoneID: record.recordID.zoneID), owner: owner,
                recordName: record.recordID.recordName, publicPermission: permission, participants: participants)
        } else {
            share = RecordShare(zone: record.recordID.zoneID, owner: owner, publicPermission: permission, participants: participants)
            share.recordID = record.recordID
        }
        share.shortGUID = guid
        share.recordChangeTag = record.recordChangeTag
        return share
    }

    /// The index entry of a share.
    static func indexRecord(of share: RecordShare) -> Record {
        var record = Record(recordType: indexRecordType, recordID: indexID(shortGUID: share.shortGUID))
        record["zone"] = .string(share.zoneID.zoneName)
        record["share"] = .string(share.recordID.recordName)
        record["owner"] = .string(share.owner)
        let others = share.participants.filter { $0.role != .owner }
        record["users"] = .list(others.compactMap(\.userRecordName).map(Value.string))
        record["emails"] = .list(others.compactMap(\.emailAddress).map { .string($0.lowercased()) })
        return record
    }

    /// The share an index entry names.
    static func indexedShareID(_ entry: Record) -> RecordID? {
        guard case .string(let zone)? = entry["zone"], case .string(let name)? = entry["share"] else { return nil }
        return RecordID(recordName: name, zoneID: ZoneID(zoneName: zone))
    }

    /// The record types, as ``Store`` defines them once.
    static let recordTypes = [
        RecordTypeSchema(name: RecordShare.storedRecordType, fields: [
            FieldSchema(name: "root", type: .reference, isQueryable: true, isSortable: false),
            FieldSchema(name: "owner", type: .string, isQueryable: false, isSortable: false),
            FieldSchema(name: "publicPermission", type: .string, isQueryable: false, isSortable: false),
            FieldSchema(name: "shortGUID", type: .string, isQueryable: false, isSortable: false),
            FieldSchema(name: "participants", type: .string, isQueryable: false, isSortable: false),
            DeleteSelfReferences.fieldSchema,
        ]),
        RecordTypeSchema(name: indexRecordType, fields: [
            FieldSchema(name: "zone", type: .string, isQueryable: false, isSortable: false),
            FieldSchema(name: "share", type: .string, isQueryable: false, isSortable: false),
            FieldSchema(name: "owner", type: .string, isQueryable: true, isSortable: false),
            FieldSchema(name: "users", type: .list(.string), isQueryable: true, isSortable: false),
            FieldSchema(name: "emails", type: .list(.string), isQueryable: true, isSortable: false),
        ]),
    ]
}
