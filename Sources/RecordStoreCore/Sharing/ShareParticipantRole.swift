/// What a participant is to a share (`CKShare.ParticipantRole`, a participant's `type` in
/// CloudKit Web Services): its owner, a user the owner invited, or a user who joined through the
/// share's public permission.
///
/// ```swift
/// ShareParticipantRole(rawValue: "PUBLIC_USER")   // .publicUser
/// ```
public enum ShareParticipantRole: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// `OWNER`: the user whose records are shared; always the first participant, `READ_WRITE`
    /// and `ACCEPTED`.
    case owner = "OWNER"
    /// `PRIVATE_USER`: a user the owner invited, with the permission the owner gave.
    case privateUser = "PRIVATE_USER"
    /// `PUBLIC_USER`: a user who accepted a share whose public permission is not `NONE`; their
    /// access follows the share's public permission.
    case publicUser = "PUBLIC_USER"

    /// The role as CloudKit spells it.
    public var description: String { rawValue }
}
