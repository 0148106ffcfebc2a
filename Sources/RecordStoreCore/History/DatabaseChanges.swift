/// Which zones changed since a database ``ChangeToken`` (``Store/databaseChanges(since:limit:)``,
/// CloudKit's `changes/database`): the zones created or whose records changed, the zones
/// deleted, the token to continue from, and whether more wait.
///
/// ```swift
/// let database = try store.databaseChanges(since: savedDatabaseToken)
/// for zone in database.changedZones {
///     let changes = try store.changes(in: zone, since: zoneTokens[zone])
///     // ...
/// }
/// ```
public struct DatabaseChanges: Sendable, Hashable {
    /// The zones created, or whose records were saved or deleted, since the token (each once,
    /// in the order they last changed).
    public var changedZones: [ZoneID]
    /// The zones deleted since the token.
    public var deletedZones: [ZoneID]
    /// Where the next call continues.
    public var token: ChangeToken
    /// Whether more zone changes wait after these: call again with ``token``.
    public var moreComing: Bool

    /// A set of zone changes (the store makes them; tests and adapters may too).
    ///
    /// ```swift
    /// DatabaseChanges(changedZones: [notes], deletedZones: [], token: token, moreComing: false)
    /// ```
    public init(changedZones: [ZoneID], deletedZones: [ZoneID], token: ChangeToken, moreComing: Bool) {
        self.changedZones = changedZones
        self.deletedZones = deletedZones
        self.token = token
        self.moreComing = moreComing
    }
}
