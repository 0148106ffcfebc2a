/// The roles CloudKit defines for every container, as grants name them; any other role is a
/// custom one (`CREATE ROLE`), which users hold by assignment (``Store/assignRole(_:to:)``).
///
/// ```swift
/// CloudKitSchemaGrant(permissions: [.read], role: SecurityRole.world)   // GRANT READ TO "_world"
/// ```
public enum SecurityRole {
    /// `_world`: everyone, signed in or not.
    public static let world = "_world"
    /// `_icloud`: every signed-in user.
    public static let authenticated = "_icloud"
    /// `_creator`: the user who created the record.
    public static let creator = "_creator"
    /// The three roles above.
    public static let systemRoles: Set<String> = [world, authenticated, creator]
}
