// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

/// Who a database request acts for: the user whose name the records it saves carry in `created`
/// and `modified` (the store's ``Record/creatorUserRecordName`` and
/// ``Record/lastModifiedUserRecordName``), and whether the store's security roles hold it.
///
/// In the public database, a signed-in user and a caller with an API token alone are held to the
/// record types' grants (``SecurityPolicy``; without grants, CloudKit's defaults: the world reads,
/// signed-in users create, a record's creator changes and deletes it). A server-to-server key,
/// and the one user of a server without credentials, are not: they stand for the team, as a key
/// does in CloudKit. A private database is its owner's alone, and grants do not apply there.
///
/// ```swift
/// let principal = RequestPrincipal.of(.user("_3f…"), database: .public, privateUsers: [:])
/// principal.userRecordName          // "_3f…"
/// principal.followsSecurityRoles    // true
/// ```
struct RequestPrincipal: Sendable, Equatable {
    /// The user the request acts for; nil for an API token without a signed-in user.
    var userRecordName: String?
    /// Whether the store's security roles decide what the request may read and write.
    var followsSecurityRoles: Bool

    /// The principal of a caller in a database; `keysHeldToRoles` are the key IDs held to
    /// security roles like a user (``ServerConfiguration/keysHeldToSecurityRoles``).
    static func of(
        _ caller: RequestAuthenticator.Caller, database: Namespace.Database, privateUsers: [String: String], keysHeldToRoles: Set<String> = []
    ) -> RequestPrincipal {
        let name = try? UserRecordName.of(caller, privateUsers: privateUsers)
        guard case .public = database else { return RequestPrincipal(userRecordName: name, followsSecurityRoles: false) }
        switch caller {
        case .user, .apiToken: return RequestPrincipal(userRecordName: name, followsSecurityRoles: true)
        case .key(let keyID): return RequestPrincipal(userRecordName: name, followsSecurityRoles: keysHeldToRoles.contains(keyID))
        case .anyone, .administrator: return RequestPrincipal(userRecordName: name, followsSecurityRoles: false)
        }
    }

    /// The principal of the service's own calls: the database's owner (``UserRecordName/owner(of:)``),
    /// held to no grant.
    static func owner(of database: Namespace.Database) -> RequestPrincipal {
        RequestPrincipal(userRecordName: UserRecordName.owner(of: database), followsSecurityRoles: false)
    }

    /// The principal as security roles see it, holding `roles`.
    func securityPrincipal(roles: Set<String>) -> SecurityPrincipal {
        SecurityPrincipal(userRecordName: userRecordName, roles: roles)
    }
}
#endif
