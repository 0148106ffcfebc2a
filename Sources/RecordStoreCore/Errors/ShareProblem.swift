/// Why a sharing operation was refused (``RecordStoreError/sharing(_:)``); nothing was written.
///
/// ```swift
/// do {
///     _ = try await store.acceptShare(shortGUID: guid, as: "_dan")
/// } catch .sharing(.notInvited(let guid, let user)) {
///     print("\(user) is not invited to \(guid), and the share is not public")
/// }
/// ```
public enum ShareProblem: Sendable, Hashable, CustomStringConvertible {
    /// No share has this record identifier.
    case shareNotFound(RecordID)
    /// No share has this short GUID.
    case shortGUIDNotFound(String)
    /// The record a share would share is not stored.
    case rootNotFound(RecordID)
    /// The record (or, for a zone-wide share, the zone) already has another share: a record has
    /// at most one share, and a zone has either one zone-wide share or record shares, not both.
    case alreadyShared(RecordID, by: RecordID)
    /// The zone already has record shares, so it cannot have a zone-wide share.
    case zoneAlreadyShared(ZoneID, by: RecordID)
    /// The participant (a user record name or an email address) is not one of the share's.
    case participantNotFound(share: RecordID, participant: String)
    /// Only the share's owner may change or delete it.
    case notOwner(share: RecordID, user: String, owner: String)
    /// The user is not a participant of the share (or was removed from it), and the share
    /// gives no public permission to join it with.
    case notInvited(shortGUID: String, user: String)
    /// The share itself is not valid: `reason` says why (a share in the default zone, a
    /// participant without a user record name or email address, a participant twice, a
    /// participant with permission `NONE`, a record share named like a zone-wide share).
    case invalidShare(RecordID, reason: String)

    public var description: String {
        switch self {
        case .shareNotFound(let id):
            "there is no share \(id)"
        case .shortGUIDNotFound(let guid):
            "there is no share with short GUID '\(guid)'"
        case .rootNotFound(let id):
            "there is no record \(id) to share"
        case .alreadyShared(let id, let share):
            "\(id) is already shared by \(share) (a record has one share; a zone has one zone-wide share or record shares, not both)"
        case .zoneAlreadyShared(let zone, let share):
            "zone '\(zone.zoneName)' already has record share \(share) (a zone has one zone-wide share or record shares, not both)"
        case .participantNotFound(let share, let participant):
            "\(participant) is not a participant of share \(share)"
        case .notOwner(let share, let user, let owner):
            "\(user) does not own share \(share): only its owner, \(owner), may change or delete it"
        case .notInvited(let guid, let user):
            "\(user) is not a participant of share '\(guid)', and the share has no public permission"
        case .invalidShare(let id, let reason):
            "share \(id) is not valid: \(reason)"
        }
    }
}
