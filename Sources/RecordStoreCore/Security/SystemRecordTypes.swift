/// The record types a store keeps for itself and for `query serve` (its security policy and role
/// holders; the server's users, sessions, sign-ins and subscriptions; shares and their index), in
/// zones of their own that no client reaches (but shares, `QueryShare`, which live in the zone
/// they share, as CloudKit's `cloudkit.share` records do: ``RecordShare``). A schema export
/// (``Store/schemaDocument()-2srw0``) leaves them out: they are not the app's schema.
///
/// ```swift
/// SystemRecordTypes.contains("QuerySecurityPolicy")   // true
/// SystemRecordTypes.contains("City")                  // false
/// ```
public enum SystemRecordTypes {
    /// The names.
    public static let names: Set<String> = [
        "QuerySecurityPolicy", "QuerySecurityRoleMember",
        "QueryServerUser", "QueryServerSession", "QueryServerSignIn", "QueryServerSubscription",
        "QueryShare", "QueryShareIndex",
    ]

    /// Whether a record type is one of them.
    public static func contains(_ recordType: String) -> Bool { names.contains(recordType) }
}
