// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

extension Namespace {
    /// The private namespace a stored zone belongs to, and the zone's name as that database's
    /// owner sees it: a share lives in its owner's zone (`private/U/Z`, or
    /// `development/private/U/Z`), and a shared database reaches the zone through it. Nil for a
    /// zone of no private database.
    ///
    /// ```swift
    /// Namespace.privateDatabase(of: ZoneID(zoneName: "development/private/user.3f2a/Trips"))
    /// // (Namespace(environment: .development, database: .private(user: "user.3f2a")), "Trips")
    /// ```
    static func privateDatabase(of zone: ZoneID) -> (namespace: Namespace, zoneName: String)? {
        var rest = Substring(zone.zoneName)
        var environment = Environment.production
        if rest.hasPrefix("development/") {
            environment = .development
            rest = rest.dropFirst("development/".count)
        }
        guard rest.hasPrefix("private/") else { return nil }
        rest = rest.dropFirst("private/".count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let user = String(rest[..<slash])
        let zoneName = String(rest[rest.index(after: slash)...])
        guard !user.isEmpty, !zoneName.isEmpty, !zoneName.contains("/") else { return nil }
        return (Namespace(environment: environment, database: .private(user: user)), zoneName)
    }

    /// The user whose shared database this is; nil for the public and private databases.
    var sharedDatabaseUser: String? {
        if case .shared(let user) = database { return user }
        return nil
    }
}
#endif
