/// Where a participant stands with a share (`CKShare.ParticipantAcceptanceStatus`, the
/// `acceptanceStatus` of CloudKit Web Services): invited, accepted, or removed. Only an accepted
/// participant has access to the shared records.
///
/// ```swift
/// ShareAcceptanceStatus(rawValue: "PENDING")   // .pending
/// ```
public enum ShareAcceptanceStatus: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// `PENDING`: invited, not yet accepted (``Store/acceptShare(shortGUID:as:emailAddress:)``).
    case pending = "PENDING"
    /// `ACCEPTED`: the participant accepted the share; the shared records are in their shared
    /// database with their permission.
    case accepted = "ACCEPTED"
    /// `REMOVED`: the owner took the participant's access away but keeps them listed; they
    /// cannot accept again until the owner invites them anew.
    case removed = "REMOVED"

    /// The status as CloudKit spells it.
    public var description: String { rawValue }
}
