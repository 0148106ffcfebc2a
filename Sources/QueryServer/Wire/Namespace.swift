// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

/// Where a request's records live: CloudKit's environment (`development` or `production`), whose
/// store keeps them (the served store, or the development store beside it: `CloudKitService`'s
/// `store(for:)`), and database (`public`, or `private` for one user), kept apart as prefixes of
/// the store's zone names, so that one store serves every container's namespaces.
///
/// | environment | database | zone `Z` is stored as | in |
/// |---|---|---|---|
/// | production | public | `Z` (what `query find --zone Z` reads) | the served store |
/// | development | public | `development/Z` | the development store |
/// | production | private, user `U` | `private/U/Z` | the served store |
/// | development | private, user `U` | `development/private/U/Z` | the development store |
///
/// Clients never see the prefixes. A zone name a client sends may not contain `/`, so no
/// client can reach into another namespace.
///
/// ```swift
/// let namespace = Namespace(environment: .development, database: .public)
/// namespace.storedZone("Archive")   // ZoneID(zoneName: "development/Archive")
/// ```
public struct Namespace: Sendable, Hashable {
    /// CloudKit's environments.
    public enum Environment: String, Sendable {
        /// The development environment: a store of its own beside the served one.
        case development
        /// The production environment: the served store, in production mode.
        case production
    }

    /// CloudKit's databases: the public one, one user's private one, or one user's shared one.
    public enum Database: Sendable, Hashable {
        /// The public database.
        case `public`
        /// The private database of one user (a server-to-server key's user).
        case `private`(user: String)
        /// The shared database of one user (their user record name): the zones and records
        /// other users shared with them, each stored in its owner's private database
        /// (``CloudKitService``'s shared-database routes resolve each request's zone to its
        /// owner's). It has no zones of its own: the server never stores a zone under it.
        case shared(user: String)
    }

    /// The request's environment (`development` or `production` in its path).
    public let environment: Environment
    /// The request's database (`public`, or `private` for the calling key).
    public let database: Database

    /// A namespace.
    public init(environment: Environment, database: Database) {
        self.environment = environment
        self.database = database
    }

    /// The prefix of every zone name this namespace stores.
    var prefix: String {
        var prefix = environment == .development ? "development/" : ""
        switch database {
        case .public: break
        case .private(let user): prefix += "private/\(user)/"
        // No zone is stored under this prefix: nothing reads or writes a shared database's own zones.
        case .shared(let user): prefix += "shared/\(user)/"
        }
        return prefix
    }

    /// The store's zone for a zone name the client sent; `BAD_REQUEST` for a name CloudKit refuses.
    func storedZone(_ zoneName: String) throws(ServerError) -> ZoneID {
        if case .shared = database {
            throw ServerError(.badRequest, "the shared database's zones are other users' zones; this request is not answered in the shared database")
        }
        guard !zoneName.isEmpty else { throw ServerError(.badRequest, "a zone name cannot be empty") }
        guard !zoneName.utf8.contains(UInt8(ascii: "/")), !zoneName.utf8.contains(0) else {
            throw ServerError(.badRequest, "zone name '\(zoneName.prefix(80))' may not contain '/' or NUL")
        }
        guard zoneName.utf8.count <= 255 else { throw ServerError(.badRequest, "a zone name has at most 255 bytes") }
        // `$` starts the names the server keeps for itself (`$assets`).
        guard !zoneName.hasPrefix("$") else { throw ServerError(.badRequest, "zone name '\(zoneName.prefix(80))' may not start with '$', which the server reserves") }
        let zone = ZoneID(zoneName: prefix + zoneName)
        // The store's own zones (its security policy and role holders) are no client's.
        guard !SystemZones.contains(zone) else { throw ServerError(.badRequest, "zone name '\(zoneName.prefix(80))' names a zone the store keeps for itself") }
        return zone
    }

    /// The zone name a client sees for a stored zone, or nil when the zone is in another namespace.
    func clientZoneName(_ stored: ZoneID) -> String? {
        guard !SystemZones.contains(stored) else { return nil }
        let name = stored.zoneName
        if prefix.isEmpty {
            // Production's public database: every zone without a `/` (client zone names have none;
            // other namespaces' zones and the subscriptions' zones do).
            return name.utf8.contains(UInt8(ascii: "/")) ? nil : name
        }
        guard name.hasPrefix(prefix) else { return nil }
        let rest = String(name.dropFirst(prefix.count))
        return rest.utf8.contains(UInt8(ascii: "/")) ? nil : rest
    }

    /// Whether a zone is the namespace's default zone, which exists without being created.
    func isDefaultZone(_ stored: ZoneID) -> Bool {
        stored.zoneName == prefix + ZoneID.default.zoneName
    }

    /// The namespace whose subscriptions a zone of the store holds (`subscriptions/` and the
    /// namespace's prefix, ``SubscriptionStorage``), or nil for any other zone.
    init?(subscriptionsZone zone: ZoneID) {
        guard zone.zoneName.hasPrefix("subscriptions/") else { return nil }
        var rest = Substring(zone.zoneName.dropFirst("subscriptions/".count))
        var environment = Environment.production
        if rest.hasPrefix("development/") {
            environment = .development
            rest = rest.dropFirst("development/".count)
        }
        if rest.isEmpty {
            self.init(environment: environment, database: .public)
            return
        }
        for (databaseName, database) in [("private/", Database.private), ("shared/", Database.shared)] where rest.hasPrefix(databaseName) {
            let user = rest.dropFirst(databaseName.count).dropLast()
            guard rest.hasSuffix("/"), !user.isEmpty, !user.contains("/") else { return nil }
            self.init(environment: environment, database: database(String(user)))
            return
        }
        return nil
    }
}
#endif
