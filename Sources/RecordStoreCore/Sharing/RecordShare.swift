import Foundation

/// A share (`CKShare`): a record and its hierarchy, or a whole zone, opened by their owner to
/// other users.
///
/// A record share (``init(rootRecordID:owner:recordName:publicPermission:participants:)``) shares
/// its root record and every record whose ``Record/parent`` chain reaches the root; a zone-wide
/// share (``init(zone:owner:publicPermission:participants:)``, record name
/// ``zoneShareRecordName``) shares every record of its zone. Shares live in custom zones, as in
/// CloudKit: the default zone cannot be shared.
///
/// The store keeps a share as a record of its zone (``recordID``, type ``storedRecordType``),
/// as CloudKit keeps a `cloudkit.share` record beside the records it shares: deleting the zone
/// deletes its shares, and deleting a share's root deletes the share. Participants are
/// ``ShareParticipant``s; the owner is always the first of them (``ShareParticipantRole/owner``,
/// `READ_WRITE`, `ACCEPTED`), whatever a save lists. ``shortGUID`` is the share's address for
/// accepting it, given by the store when the share is first saved.
///
/// ```swift
/// let trips = ZoneID(zoneName: "Trips")
/// var share = RecordShare(rootRecordID: RecordID(recordName: "paris-trip", zoneID: trips), owner: "_ada")
/// share.participants = [ShareParticipant(userRecordName: "_bob", permission: .readOnly)]
/// share = try await store.saveShare(share)
/// share.shortGUID                          // "q3Xv0aE9JbKQ8m1k2F7s4w" (random)
/// share.participants.map(\.role)           // [.owner, .privateUser]
/// ```
public struct RecordShare: Sendable, Hashable {
    /// The share's record identifier, in the zone of the records it shares.
    public var recordID: RecordID
    /// The record the share shares with its hierarchy; nil for a zone-wide share.
    public var rootRecordID: RecordID?
    /// The user whose records are shared.
    public var owner: String
    /// What any signed-in user who accepts the share may do (`NONE`: only invited participants
    /// may accept).
    public var publicPermission: SharePermission
    /// The participants, the owner first.
    public var participants: [ShareParticipant]
    /// The share's short GUID (CloudKit's `shortGUID`): random, URL-safe, unique in the store,
    /// the address a participant accepts the share by. Empty until the share is first saved.
    public internal(set) var shortGUID: String
    /// The change tag of the stored share; nil before it is saved. A save of a share whose tag
    /// differs from the stored one is a ``RecordStoreError/conflict(_:expected:found:)``.
    public var recordChangeTag: String?

    /// The record name of a zone-wide share, as CloudKit names it: `cloudkit.zoneshare`.
    public static let zoneShareRecordName = "cloudkit.zoneshare"
    /// The record types a share has on CloudKit's wire: `cloudkit.share` (and `cloudKit.share`,
    /// which CloudKit JS also sends). The store keeps shares as ``storedRecordType``.
    public static let wireRecordTypes: Set<String> = ["cloudkit.share", "cloudKit.share"]
    /// The record type the store keeps shares as (a record type name is an identifier, so not
    /// `cloudkit.share`): one of ``SystemRecordTypes``.
    public static let storedRecordType = "QueryShare"

    /// A share of a record and its hierarchy, not yet saved. Its record name defaults to
    /// `Share-` and a UUID, as `CKShare(rootRecord:)` makes one.
    ///
    /// ```swift
    /// RecordShare(rootRecordID: RecordID(recordName: "paris-trip", zoneID: ZoneID(zoneName: "Trips")), owner: "_ada",
    ///             publicPermission: .readOnly)
    /// ```
    public init(
        rootRecordID: RecordID, owner: String, recordName: String = "Share-" + UUID().uuidString, publicPermission: SharePermission = .none,
        participants: [ShareParticipant] = []
    ) {
        self.recordID = RecordID(recordName: recordName, zoneID: rootRecordID.zoneID)
        self.rootRecordID = rootRecordID
        self.owner = owner
        self.publicPermission = publicPermission
        self.participants = participants
        self.shortGUID = ""
    }

    /// A zone-wide share (`CKShare(recordZoneID:)`), not yet saved: it shares every record of
    /// the zone.
    ///
    /// ```swift
    /// RecordShare(zone: ZoneID(zoneName: "Trips"), owner: "_ada", participants: [ShareParticipant(userRecordName: "_bob", permission: .readWrite)])
    /// ```
    public init(zone: ZoneID, owner: String, publicPermission: SharePermission = .none, participants: [ShareParticipant] = []) {
        self.recordID = RecordID(recordName: Self.zoneShareRecordName, zoneID: zone)
        self.rootRecordID = nil
        self.owner = owner
        self.publicPermission = publicPermission
        self.participants = participants
        self.shortGUID = ""
    }

    /// Whether the share shares its whole zone.
    public var isZoneWide: Bool { rootRecordID == nil }

    /// The zone of the shared records.
    public var zoneID: ZoneID { recordID.zoneID }

    /// The participant who is this user (CloudKit's `currentUserParticipant`, for the user
    /// asking): matched by user record name, or by email address for a participant invited by
    /// email who has not accepted yet.
    ///
    /// ```swift
    /// share.currentUserParticipant("_bob")?.acceptanceStatus   // .pending
    /// ```
    public func currentUserParticipant(_ userRecordName: String, emailAddress: String? = nil) -> ShareParticipant? {
        participants.first { $0.isUser(userRecordName, emailAddress: emailAddress) }
    }

    /// What the share lets a user do with the records it shares: `READ_WRITE` for the owner;
    /// for an accepted participant, the permission the owner gave (a public user: the share's
    /// current public permission); nil for anyone else, a pending or removed participant
    /// included.
    ///
    /// ```swift
    /// share.permission(for: "_ada")   // .readWrite (the owner)
    /// share.permission(for: "_bob")   // nil until Bob accepts, then .readOnly
    /// ```
    public func permission(for userRecordName: String) -> SharePermission? {
        if userRecordName == owner { return .readWrite }
        guard let participant = participants.first(where: { $0.userRecordName == userRecordName }),
              participant.acceptanceStatus == .accepted else { return nil }
        let permission = participant.role == .publicUser ? publicPermission : participant.permission
        return permission == .none ? nil : permission
    }

    /// The owner as a participant: `READ_WRITE`, `ACCEPTED`.
    var ownerParticipant: ShareParticipant {
        ShareParticipant(userRecordName: owner, emailAddress: nil, permission: .readWrite, acceptanceStatus: .accepted, role: .owner)
    }
}
