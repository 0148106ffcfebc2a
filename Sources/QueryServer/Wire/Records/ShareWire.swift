// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

/// A share (``RecordShare``) in CloudKit's wire shape: a record of type `cloudkit.share` with
/// its `shortGUID`, `publicPermission`, `participants`, `owner`, and the asking user's
/// `currentUserParticipant`.
///
/// ```json
/// {"recordName": "trip-share", "recordType": "cloudkit.share", "recordChangeTag": "4",
///  "zoneID": {"zoneName": "Trips", "ownerRecordName": "_ada…"}, "shortGUID": "q3Xv0aE9JbKQ8m1k2F7s4w",
///  "publicPermission": "NONE", "forRecord": {"recordName": "paris-trip"},
///  "owner": {"userIdentity": {"userRecordName": "_ada…"}, "type": "OWNER", "acceptanceStatus": "ACCEPTED", "permission": "READ_WRITE"},
///  "participants": [ … ], "currentUserParticipant": { … }, "fields": {}}
/// ```
enum ShareWire {
    /// The record type a share has on the wire.
    static let recordType = "cloudkit.share"

    /// A share as a record object, for `user` (nil: no `currentUserParticipant`), its zone
    /// named `zoneName` and owned by `zoneOwner`.
    static func json(_ share: RecordShare, zoneName: String, zoneOwner: String, for user: String?) -> JSONValue {
        var members: [String: JSONValue] = [
            "recordName": .string(share.recordID.recordName),
            "recordType": .string(recordType),
            "deleted": .bool(false),
            "zoneID": .object(["zoneName": .string(zoneName), "ownerRecordName": .string(zoneOwner)]),
            "shortGUID": .string(share.shortGUID),
            "publicPermission": .string(share.publicPermission.rawValue),
            "participants": .array(share.participants.map(participantJSON)),
            "fields": .object([:]),
        ]
        if let tag = share.recordChangeTag { members["recordChangeTag"] = .string(tag) }
        if let root = share.rootRecordID { members["forRecord"] = .object(["recordName": .string(root.recordName)]) }
        if let owner = share.participants.first(where: { $0.role == .owner }) { members["owner"] = participantJSON(owner) }
        if let user, let current = share.currentUserParticipant(user) { members["currentUserParticipant"] = participantJSON(current) }
        return .object(members)
    }

    /// A participant: `userIdentity` (`userRecordName` and `lookupInfo`), `type`,
    /// `acceptanceStatus`, `permission`.
    static func participantJSON(_ participant: ShareParticipant) -> JSONValue {
        var identity: [String: JSONValue] = [:]
        var lookup: [String: JSONValue] = [:]
        if let name = participant.userRecordName {
            identity["userRecordName"] = .string(name)
            lookup["userRecordName"] = .string(name)
        }
        if let email = participant.emailAddress { lookup["emailAddress"] = .string(email) }
        if !lookup.isEmpty { identity["lookupInfo"] = .object(lookup) }
        return .object([
            "userIdentity": .object(identity),
            "type": .string(participant.role.rawValue),
            "acceptanceStatus": .string(participant.acceptanceStatus.rawValue),
            "permission": .string(participant.permission.rawValue),
        ])
    }
}
#endif
