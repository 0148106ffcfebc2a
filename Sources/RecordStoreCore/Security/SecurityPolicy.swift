/// The security roles of a store's public database, as CloudKit's schema language declares them:
/// the roles `CREATE ROLE` creates, and the `GRANT` lines of each record type.
///
/// A record type without grants has the ones CloudKit gives a new record type
/// (``defaultGrants``): everyone reads (`_world`), signed-in users create (`_icloud`), and a
/// record's creator changes and deletes it (`_creator`). Permissions stand apart: `WRITE` (update
/// and delete) does not give `READ`. The private database is its user's alone: grants do not
/// apply there, and the library and the command line, which own the store, are never held to them.
///
/// ```swift
/// var policy = SecurityPolicy()
/// policy.roles = ["Moderator"]
/// policy.grants["Note"] = [CloudKitSchemaGrant(permissions: [.read], role: "_icloud"),
///                          CloudKitSchemaGrant(permissions: [.create, .write], role: "Moderator")]
/// let ada = SecurityPrincipal(userRecordName: "_ada")
/// policy.access(.read, to: "Note", for: ada)            // .allRecords
/// policy.access(.write, to: "Note", for: ada)           // .none
/// policy.access(.write, to: "Tag", for: ada)            // .ownRecords (the defaults)
/// ```
public struct SecurityPolicy: Sendable, Hashable, Codable {
    /// The custom roles (`CREATE ROLE`), in the order declared.
    public var roles: [String]
    /// The grants of each record type that declares some, in the order written.
    public var grants: [String: [CloudKitSchemaGrant]]

    /// The grants of a record type that declares none, as CloudKit gives them:
    /// `GRANT WRITE TO "_creator"`, `GRANT CREATE TO "_icloud"`, `GRANT READ TO "_world"`.
    public static let defaultGrants = [
        CloudKitSchemaGrant(permissions: [.write], role: SecurityRole.creator),
        CloudKitSchemaGrant(permissions: [.create], role: SecurityRole.authenticated),
        CloudKitSchemaGrant(permissions: [.read], role: SecurityRole.world),
    ]

    /// A policy: no custom roles, and no grants (every record type has the defaults).
    public init(roles: [String] = [], grants: [String: [CloudKitSchemaGrant]] = [:]) {
        self.roles = roles
        self.grants = grants
    }

    /// The grants that hold for a record type: its own, or ``defaultGrants``.
    ///
    /// ```swift
    /// SecurityPolicy().effectiveGrants(for: "Note") == SecurityPolicy.defaultGrants   // true
    /// ```
    public func effectiveGrants(for recordType: String) -> [CloudKitSchemaGrant] {
        guard let declared = grants[recordType], !declared.isEmpty else { return Self.defaultGrants }
        return declared
    }

    /// Which records of a type a principal has a permission on: all of them, only those the
    /// principal created (granted to `_creator` alone), or none.
    ///
    /// ```swift
    /// SecurityPolicy().access(.read, to: "Note", for: .anonymous)   // .allRecords
    /// SecurityPolicy().access(.create, to: "Note", for: .anonymous) // .none
    /// ```
    public func access(_ permission: CloudKitSchemaPermission, to recordType: String, for principal: SecurityPrincipal) -> RecordAccess {
        var ownRecords = false
        for grant in effectiveGrants(for: recordType) where grant.permissions.contains(permission) {
            switch grant.role {
            case SecurityRole.world:
                return .allRecords
            case SecurityRole.authenticated:
                if principal.userRecordName != nil { return .allRecords }
            case SecurityRole.creator:
                if principal.userRecordName != nil { ownRecords = true }
            default:
                if principal.roles.contains(grant.role) { return .allRecords }
            }
        }
        return ownRecords ? .ownRecords : .none
    }

    /// Whether a principal has a permission on one record of a type, created by `creator` (for
    /// `CREATE`, the principal creates it: a `_creator` grant allows it to a signed-in user).
    ///
    /// ```swift
    /// SecurityPolicy().allows(.write, on: "Note", createdBy: "_ada", for: SecurityPrincipal(userRecordName: "_ada"))   // true
    /// SecurityPolicy().allows(.write, on: "Note", createdBy: "_ada", for: SecurityPrincipal(userRecordName: "_bob"))   // false
    /// ```
    public func allows(_ permission: CloudKitSchemaPermission, on recordType: String, createdBy creator: String?, for principal: SecurityPrincipal) -> Bool {
        switch access(permission, to: recordType, for: principal) {
        case .allRecords: true
        case .ownRecords: permission == .create || (creator != nil && creator == principal.userRecordName)
        case .none: false
        }
    }

    /// The custom roles the grants of any record type name.
    public var grantedCustomRoles: Set<String> {
        Set(grants.values.joined().map(\.role).filter { !SecurityRole.systemRoles.contains($0) })
    }
}
