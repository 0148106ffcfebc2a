// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

/// The members of a `cloudkit.share` record (`cloudKit.share` too) in a `records/modify`
/// operation: the root record (`forRecord`, by name; absent for the zone-wide share, whose record
/// name is `cloudkit.zoneshare`), `publicPermission` and `participants`.
///
/// Each participant names a user by `userIdentity.userRecordName`, or by
/// `userIdentity.lookupInfo` (`emailAddress`, or `userRecordName`), with a `permission`. The
/// owner keeps acceptance to the participants: an `acceptanceStatus` other than `REMOVED` is
/// ignored, as the store ignores it (``ShareParticipant``).
///
/// ```json
/// {"recordType": "cloudkit.share", "recordName": "trip-share",
///  "forRecord": {"recordName": "paris-trip", "recordChangeTag": "3"},
///  "publicPermission": "NONE",
///  "participants": [{"userIdentity": {"lookupInfo": {"emailAddress": "bob@example.org"}}, "permission": "READ_ONLY"}]}
/// ```
struct ShareRequest: Decodable {
    /// The root record's name; nil for a zone-wide share.
    let rootRecordName: String?
    /// `publicPermission` (default `NONE`).
    let publicPermission: SharePermission
    /// The participants as sent, the owner's own entry left out.
    let participants: [ShareParticipant]

    private enum CodingKeys: String, CodingKey {
        case forRecord, publicPermission, participants
    }

    private enum RootKeys: String, CodingKey {
        case recordName
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if try container.decodeNil(forKey: .forRecord) {
            rootRecordName = nil
        } else {
            let root = try container.nestedContainer(keyedBy: RootKeys.self, forKey: .forRecord)
            rootRecordName = try root.decode(String.self, forKey: .recordName, expected: "the root record's name")
        }
        publicPermission = try Self.permission(container, .publicPermission) ?? .none
        participants = try container.decodeIfPresent([Participant].self, forKey: .participants)?.compactMap(\.participant) ?? []
    }

    /// A permission member: `NONE`, `READ_ONLY` or `READ_WRITE`.
    fileprivate static func permission<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> SharePermission? {
        let expected = "one of NONE, READ_ONLY, READ_WRITE"
        guard let text = try container.decodeIfPresent(String.self, forKey: key, expected: expected) else { return nil }
        guard let permission = SharePermission(rawValue: text) else {
            throw ServerError(.badRequest, "\(container.path(key)) is \(expected), not '\(text.prefix(80))'")
        }
        return permission
    }

    /// One entry of `participants`.
    private struct Participant: Decodable {
        /// The participant; nil for the owner's own entry (`type: OWNER`), which the store adds.
        let participant: ShareParticipant?

        private enum CodingKeys: String, CodingKey {
            case userIdentity, permission, acceptanceStatus, type
        }

        private enum IdentityKeys: String, CodingKey {
            case userRecordName, lookupInfo
        }

        private enum LookupKeys: String, CodingKey {
            case emailAddress, userRecordName
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let type = try container.decodeIfPresent(String.self, forKey: .type, expected: "one of OWNER, PRIVATE_USER, PUBLIC_USER")
            if type == ShareParticipantRole.owner.rawValue {
                participant = nil
                return
            }
            let identity = try container.nestedContainer(keyedBy: IdentityKeys.self, forKey: .userIdentity)
            var userRecordName = try identity.decodeIfPresent(String.self, forKey: .userRecordName, expected: "a user record name")
            var emailAddress: String?
            if try !identity.decodeNil(forKey: .lookupInfo) {
                let lookup = try identity.nestedContainer(keyedBy: LookupKeys.self, forKey: .lookupInfo)
                emailAddress = try lookup.decodeIfPresent(String.self, forKey: .emailAddress, expected: "an email address")
                userRecordName = try userRecordName ?? lookup.decodeIfPresent(String.self, forKey: .userRecordName, expected: "a user record name")
            }
            guard userRecordName != nil || emailAddress != nil else {
                throw ServerError(.badRequest, "\(container.path(.userIdentity)) names no user: give userRecordName, or lookupInfo with emailAddress")
            }
            let permission = try ShareRequest.permission(container, .permission) ?? .readOnly
            let status = try container.decodeIfPresent(String.self, forKey: .acceptanceStatus, expected: "one of PENDING, ACCEPTED, REMOVED")
            participant = ShareParticipant(
                userRecordName: userRecordName, emailAddress: emailAddress, permission: permission,
                acceptanceStatus: status == ShareAcceptanceStatus.removed.rawValue ? .removed : .pending,
                role: type == ShareParticipantRole.publicUser.rawValue ? .publicUser : .privateUser)
        }
    }
}
#endif
