// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

/// The `userRecordName` of a caller: what `users/current` answers, and what the records it saves
/// carry in `created` and `modified` (``RequestPrincipal``). (Zone IDs keep `_defaultOwner` as their
/// `ownerRecordName` for now, in records as in the zones routes, so that the two agree.)
///
/// A key's name is `_` and the first 32 hex digits of the SHA-256 of its private database user
/// (``PrivateDatabaseUser``, which the key ID decides): CloudKit's shape (`_` and 32 hex digits),
/// stable for a key across restarts and servers, one-to-one with the key's private database, and
/// without the key ID in it. A server without credentials has one user, `_defaultOwner`.
///
/// A record saved without an author (imported, or saved through the library) shows its
/// database's owner: `_defaultOwner` in the public database, the owner in a private one.
///
/// ```swift
/// UserRecordName.owner(of: .private(user: "k_2D1"))   // "_" + 32 hex digits
/// UserRecordName.owner(of: .public)                   // "_defaultOwner"
/// ```
enum UserRecordName {
    /// The name a database's records without an author show as their creator and modifier.
    static func owner(of database: Namespace.Database) -> String {
        guard case .private(let user) = database, user != WireRecord.ownerName else { return WireRecord.ownerName }
        // A signed-in user's database is named after the user (``ServerUser``'s `privateDatabase`).
        if user.hasPrefix(signedInDatabasePrefix) { return "_" + user.dropFirst(signedInDatabasePrefix.count) }
        return name(hashing: "query-user:\(user)")
    }

    /// What a signed-in user's private database name starts with: `user.`, then the hex digits
    /// of the user's record name. No key's database name has a `.` (``PrivateDatabaseUser``).
    static let signedInDatabasePrefix = "user."

    /// A record name made from a text: `_` and the first 32 hex digits of its SHA-256.
    static func name(hashing text: String) -> String {
        "_" + Hexadecimal.lowercase(SHA256Digest.hash(Array(text.utf8)).prefix(16))
    }

    /// The name of a caller (its private database's owner); an API token stands for no user.
    static func of(_ caller: RequestAuthenticator.Caller, privateUsers: [String: String]) throws(ServerError) -> String {
        switch caller {
        case .anyone, .administrator: return WireRecord.ownerName
        case .key(let keyID): return owner(of: .private(user: privateUsers[keyID] ?? PrivateDatabaseUser.name(keyID: keyID)))
        case .user(let userRecordName): return userRecordName
        case .apiToken: throw ServerError(.authenticationRequired, "an API token stands for no user; sign in (ckWebAuthToken) or use a server-to-server key")
        }
    }
}
#endif
