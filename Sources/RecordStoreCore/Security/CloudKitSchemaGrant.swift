/// A `GRANT` line of a record type: permissions for a role. A store keeps the grants of the
/// documents applied to it as its ``SecurityPolicy``, which a server enforces in the public
/// database.
///
/// ```swift
/// let grant = CloudKitSchemaGrant(permissions: [.write, .create, .read], role: "DeptManager")
/// grant.description   // "GRANT WRITE, CREATE, READ TO DeptManager"
/// ```
public struct CloudKitSchemaGrant: Sendable, Hashable, Codable {
    /// The permissions, in the order written.
    public var permissions: [CloudKitSchemaPermission]
    /// The role, without quotes: `_creator`, `_icloud`, `_world` or a role the document creates.
    public var role: String

    /// Creates a grant.
    ///
    /// ```swift
    /// CloudKitSchemaGrant(permissions: [.read], role: "_world")
    /// ```
    public init(permissions: [CloudKitSchemaPermission], role: String) {
        self.permissions = permissions
        self.role = role
    }
}
