/// Who asks, as security roles see it: a signed-in user (their record name and the custom roles
/// they hold) or an anonymous caller.
///
/// ```swift
/// let moderator = SecurityPrincipal(userRecordName: "_ada", roles: ["Moderator"])
/// SecurityPrincipal.anonymous.userRecordName   // nil
/// ```
public struct SecurityPrincipal: Sendable, Hashable {
    /// The user's record name; nil for a caller who is not signed in.
    public var userRecordName: String?
    /// The custom roles the user holds.
    public var roles: Set<String>

    /// A principal.
    public init(userRecordName: String?, roles: Set<String> = []) {
        self.userRecordName = userRecordName
        self.roles = roles
    }

    /// A caller who is not signed in: `_world` only.
    public static let anonymous = SecurityPrincipal(userRecordName: nil)
}
