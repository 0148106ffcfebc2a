// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

/// Resolving and accepting shares by their short GUID: `records/resolve` and `records/accept`,
/// routes of the public database as in CloudKit Web Services, for a signed-in user (or a key's
/// user).
extension CloudKitService {
    /// `records/resolve` (`accepting` false) and `records/accept` (true): for each short GUID,
    /// `{containerIdentifier, databaseScope, rootRecordName, ownerIdentity, zoneID, share,
    /// participantPermission, participantStatus, participantType}` and, when
    /// `shouldFetchRootRecord`, the `rootRecord`; or `{shortGUID, serverErrorCode, reason}`.
    ///
    /// Resolving needs the user to be the owner, a participant who was not removed, or any user
    /// when the share's public permission is not `NONE`; accepting makes an invited participant
    /// (by user record name, or by the email address of the user's directory entry) `ACCEPTED`,
    /// or joins a public share as a `PUBLIC_USER`. A short GUID the user may not use is
    /// `NOT_FOUND` or `ACCESS_DENIED` in its entry. `emailAddress` is the user's (a participant
    /// invited by email is the user with that address).
    func resolveShares(
        _ body: JSONValue, in namespace: Namespace, user: String, emailAddress: String?, container: String, accepting: Bool, links: AssetLinks?
    ) async throws(ServerError) -> JSONValue {
        guard case .public = namespace.database else {
            throw ServerError(.badRequest, "records/\(accepting ? "accept" : "resolve") is a route of the public database")
        }
        let request = try RequestBodyDecoder.decode(ShortGUIDsRequest.self, from: body)
        let store = try await store(for: namespace)
        var results: [JSONValue] = []
        for entry in request.entries {
            do throws(RecordStoreError) {
                let share: RecordShare
                if accepting {
                    share = try await store.acceptShare(shortGUID: entry.value, as: user, emailAddress: emailAddress)
                } else {
                    guard let found = try await store.share(shortGUID: entry.value) else { throw .sharing(.shortGUIDNotFound(entry.value)) }
                    let participant = found.currentUserParticipant(user, emailAddress: emailAddress)
                    guard found.owner == user || (participant != nil && participant?.acceptanceStatus != .removed) || found.publicPermission != .none else {
                        throw .sharing(.notInvited(shortGUID: entry.value, user: user))
                    }
                    share = found
                }
                results.append(try await shareMetadata(share, entry: entry, user: user, emailAddress: emailAddress, container: container, store: store, links: links))
            } catch {
                if case .serverUnavailable = error { throw Self.serverError(error) }
                let server = Self.serverError(error)
                results.append(.object(["shortGUID": .object(["value": .string(entry.value)]),
                                        "serverErrorCode": .string(server.code.rawValue), "reason": .string(server.reason)]))
            }
        }
        return .object(["results": .array(results)])
    }

    /// One result of `records/resolve` or `records/accept`: the share's metadata for the user.
    private func shareMetadata(
        _ share: RecordShare, entry: ShortGUIDsRequest.Entry, user: String, emailAddress: String?, container: String, store: Store, links: AssetLinks?
    ) async throws(RecordStoreError) -> JSONValue {
        let zoneName = Namespace.privateDatabase(of: share.zoneID)?.zoneName ?? share.zoneID.zoneName
        let participant = share.currentUserParticipant(user, emailAddress: emailAddress)
        let isOwner = share.owner == user
        var members: [String: JSONValue] = [
            "shortGUID": .object(["value": .string(entry.value)]),
            "containerIdentifier": .string(container),
            "databaseScope": .string(isOwner ? "PRIVATE" : "SHARED"),
            "ownerIdentity": .object(["userRecordName": .string(share.owner)]),
            "zoneID": .object(["zoneName": .string(zoneName), "ownerRecordName": .string(share.owner)]),
            "share": ShareWire.json(share, zoneName: zoneName, zoneOwner: share.owner, for: user),
            "participantPermission": .string((isOwner ? .readWrite : share.permission(for: user) ?? participant?.permission ?? share.publicPermission).rawValue),
            "participantStatus": .string((isOwner ? .accepted : participant?.acceptanceStatus ?? .pending).rawValue),
            "participantType": .string((isOwner ? .owner : participant?.role ?? .publicUser).rawValue),
        ]
        if let root = share.rootRecordID {
            members["rootRecordName"] = .string(root.recordName)
            if entry.shouldFetchRootRecord, let record = try await store.record(for: root) {
                var style = RecordAnswerStyle(owner: share.owner, assetLinks: links, namespace: Namespace.privateDatabase(of: share.zoneID)?.namespace)
                style.zoneOwner = share.owner
                style.rootShares = [root: share.recordID]
                members["rootRecord"] = WireRecord.json(record, zoneName: zoneName, desiredKeys: entry.rootRecordDesiredKeys.map(Set.init),
                                                        numbersAsStrings: false, style: style)
            }
        }
        return .object(members)
    }
}
#endif
