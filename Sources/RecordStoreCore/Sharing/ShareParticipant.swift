/// A participant of a share (`CKShare.Participant`): who they are (their user record name, or
/// the email address the owner invited them by: CloudKit's `userIdentity.lookupInfo`), what they
/// may do, and whether they accepted.
///
/// The owner chooses whom to invite and with which permission; the store keeps the acceptance
/// status: a participant a save adds is ``ShareAcceptanceStatus/pending`` until they accept
/// (``Store/acceptShare(shortGUID:as:emailAddress:)``), and a save may only set an existing
/// participant's status to ``ShareAcceptanceStatus/removed``. A participant invited by email
/// gets their user record name when they accept.
///
/// ```swift
/// let bob = ShareParticipant(userRecordName: "_bob", permission: .readOnly)
/// let carol = ShareParticipant(emailAddress: "carol@example.org", permission: .readWrite)
/// bob.acceptanceStatus   // .pending
/// ```
public struct ShareParticipant: Sendable, Hashable, Codable {
    /// The participant's user record name; nil for someone invited by email who has not
    /// accepted yet.
    public var userRecordName: String?
    /// The email address the owner invited the participant by, if any.
    public var emailAddress: String?
    /// What the participant may do: `READ_ONLY` or `READ_WRITE` (a public user's access follows
    /// the share's public permission instead).
    public var permission: SharePermission
    /// Whether the participant accepted the share.
    public var acceptanceStatus: ShareAcceptanceStatus
    /// The owner, an invited user, or a user who joined through the public permission.
    public var role: ShareParticipantRole

    /// A participant the owner invites by user record name.
    ///
    /// ```swift
    /// ShareParticipant(userRecordName: "_bob", permission: .readWrite)
    /// ```
    public init(userRecordName: String, permission: SharePermission) {
        self.init(userRecordName: userRecordName, emailAddress: nil, permission: permission)
    }

    /// A participant the owner invites by email address; whoever accepts with that address
    /// becomes the participant.
    ///
    /// ```swift
    /// ShareParticipant(emailAddress: "carol@example.org", permission: .readOnly)
    /// ```
    public init(emailAddress: String, permission: SharePermission) {
        self.init(userRecordName: nil, emailAddress: emailAddress, permission: permission)
    }

    /// A participant with every property given.
    ///
    /// ```swift
    /// ShareParticipant(userRecordName: "_bob", emailAddress: "bob@example.org", permission: .readOnly,
    ///                  acceptanceStatus: .pending, role: .privateUser)
    /// ```
    public init(
        userRecordName: String?, emailAddress: String?, permission: SharePermission,
        acceptanceStatus: ShareAcceptanceStatus = .pending, role: ShareParticipantRole = .privateUser
    ) {
        self.userRecordName = userRecordName
        self.emailAddress = emailAddress
        self.permission = permission
        self.acceptanceStatus = acceptanceStatus
        self.role = role
    }

    /// Whether this participant is the user: by user record name, or (for a participant invited
    /// by email who has none yet) by email address, ignoring case.
    ///
    /// ```swift
    /// ShareParticipant(emailAddress: "Carol@Example.org", permission: .readOnly)
    ///     .isUser("_carol", emailAddress: "carol@example.org")   // true
    /// ```
    public func isUser(_ userRecordName: String?, emailAddress: String? = nil) -> Bool {
        if let own = self.userRecordName { return own == userRecordName }
        guard let own = self.emailAddress, let emailAddress else { return false }
        return own.lowercased() == emailAddress.lowercased()
    }

    /// Whether two participants name the same person: the same user record name, or the same
    /// email address (ignoring case). A share lists each person once.
    ///
    /// ```swift
    /// ShareParticipant(userRecordName: "_bob", emailAddress: "bob@example.org", permission: .readOnly)
    ///     .isSamePerson(as: ShareParticipant(emailAddress: "BOB@example.org", permission: .readWrite))   // true
    /// ```
    public func isSamePerson(as other: ShareParticipant) -> Bool {
        if let user = userRecordName, let otherUser = other.userRecordName, user == otherUser { return true }
        if let email = emailAddress, let otherEmail = other.emailAddress, email.lowercased() == otherEmail.lowercased() { return true }
        return false
    }

    /// How the participant is shown: their user record name, else their email address.
    var displayName: String { userRecordName ?? emailAddress ?? "-" }
}
