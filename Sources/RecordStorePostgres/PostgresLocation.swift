// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
import PostgresNIO
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// A PostgreSQL store's URL, parsed: `postgres://user:password@host:port/database` (also
/// `postgresql://`), with these query parameters:
///
/// - `sslmode`: `disable`, `prefer` (the default: TLS when the server offers it) or `require`;
/// - `schema`: the PostgreSQL schema the store's tables live in (created when missing; default
///   `public`), so that several stores can share one database;
/// - `connect_timeout`: seconds to wait for a connection before failing (default 10);
/// - `host`: a Unix socket directory (`?host=/var/run/postgresql`), for a URL without a host;
/// - `application_name`: how the store's connections appear in `pg_stat_activity`
///   (default `query`);
/// - `target_session_attrs`: `any` (the default) or `read-write`, as libpq reads it, for a URL
///   that names several hosts (`postgres://app@db1:5432,db2:5432/cities`): the store uses the
///   first host that answers (`any`) or the first that is not a standby (`read-write`), and
///   looks again when that server stops answering or turns read-only, so that servers follow a
///   promoted standby (``PostgresPrimary``). The server the store opens on may be a hot
///   standby only with `any` (with one host or several): the store is then read-only, if it
///   exists there (``PostgresStandbyStore``); `read-write` never opens on a standby, so a URL
///   that must write says so;
/// - `replica`: `host:port` (or `host`, port 5432) of a hot standby streaming from this
///   server, with the same user, password and database; repeat it for several. Reads go to a
///   replica that has replayed everything the primary had written when the read began, and to
///   the primary otherwise (``PostgresReadReplicas``);
/// - `replica_wait`: how many milliseconds a read waits for a replica that is behind to catch
///   up before the primary answers (default 10; 0 to 60000).
///
/// User name and password may be percent-encoded. The password never appears in errors or in
/// ``description``.
///
/// ```swift
/// let location = try PostgresLocation("postgres://app:secret@db.internal:5432/cities?sslmode=require")
/// location.server        // "db.internal:5432/cities"
/// ```
struct PostgresLocation: Sendable, CustomStringConvertible {
    var host: String?
    var port: Int
    var socketPath: String?
    var user: String
    var password: String?
    var database: String
    var schema: String?
    var sslMode: String
    var connectTimeout: Duration
    var applicationName: String
    /// The read replicas' `host:port` (`replica` parameters), in the URL's order.
    var replicas: [(host: String, port: Int)] = []
    /// How long a read waits for a replica behind the primary (`replica_wait`).
    var replicaWait: Duration = .milliseconds(10)
    /// The hosts after the first of a URL that names several (`db1:5432,db2:5432`), in order.
    var alternateHosts: [(host: String, port: Int)] = []
    /// Whether only a server that is not a standby will do (`target_session_attrs=read-write`).
    var requiresWritableServer = false

    /// `host:port/database`, for messages (no credentials).
    var server: String {
        if let socketPath { return "\(socketPath)/\(database)" }
        return "\(host ?? "localhost"):\(port)/\(database)"
    }

    var description: String { "postgres://\(user)@\(server)" }

    /// Parses a URL; throws ``RecordStoreError/invalidStoreLocation(_:reason:)`` naming what is wrong.
    init(_ url: String) throws(RecordStoreError) {
        func invalid(_ reason: String) -> RecordStoreError { .invalidStoreLocation(Self.redacted(url), reason: reason) }
        // Several hosts (`db1:5432,db2:5432`): URLComponents reads one, so the first stands for all.
        var url = url
        if let (first, others) = try Self.hostList(in: url, invalid: invalid) {
            url = first
            alternateHosts = others
        }
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "postgres" || scheme == "postgresql" else {
            throw invalid("not a postgres:// URL (postgres://user:password@host:port/database)")
        }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] { parameters[item.name] = item.value ?? "" }
        let known: Set<String> = [
            "sslmode", "schema", "connect_timeout", "host", "user", "password", "application_name", "replica", "replica_wait",
            "target_session_attrs",
        ]
        if let unknown = parameters.keys.sorted().first(where: { !known.contains($0) }) {
            throw invalid("unknown parameter '\(unknown)'; known: \(known.sorted().joined(separator: ", "))")
        }
        host = components.host.flatMap { $0.isEmpty ? nil : $0 }
        if let socket = parameters["host"] {
            guard socket.hasPrefix("/") else { throw invalid("the host parameter names a Unix socket directory (an absolute path)") }
            socketPath = socket.hasSuffix("/") ? socket + ".s.PGSQL.\(components.port ?? 5432)" : socket + "/.s.PGSQL.\(components.port ?? 5432)"
        }
        port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw invalid("the port \(port) is out of range") }
        user = components.percentEncodedUser?.removingPercentEncoding ?? parameters["user"] ?? ""
        guard !user.isEmpty else { throw invalid("the URL names no user (postgres://user:password@host/database)") }
        password = components.percentEncodedPassword?.removingPercentEncoding ?? parameters["password"]
        var path = components.percentEncodedPath.removingPercentEncoding ?? components.path
        if path.hasPrefix("/") { path.removeFirst() }
        guard !path.isEmpty, !path.contains("/") else { throw invalid("the URL names no database (postgres://user:password@host/database)") }
        database = path
        if let schema = parameters["schema"] {
            guard !schema.isEmpty, schema.utf8.count <= 63, !schema.utf8.contains(0) else {
                throw invalid("the schema parameter must be a name of 1 to 63 bytes")
            }
            self.schema = schema
        }
        sslMode = parameters["sslmode"] ?? "prefer"
        guard ["disable", "prefer", "require"].contains(sslMode) else {
            throw invalid("sslmode '\(sslMode)' is not one of disable, prefer, require")
        }
        if let timeout = parameters["connect_timeout"] {
            guard let seconds = Double(timeout), seconds > 0, seconds <= 3600 else {
                throw invalid("connect_timeout must be a number of seconds between 0 and 3600")
            }
            connectTimeout = .milliseconds(Int64(seconds * 1000))
        } else {
            connectTimeout = .seconds(10)
        }
        applicationName = parameters["application_name"] ?? "query"
        guard !applicationName.utf8.contains(0), applicationName.utf8.count <= 63 else {
            throw invalid("application_name must be at most 63 bytes")
        }
        if host == nil, socketPath == nil { host = "localhost" }
        if let wait = parameters["replica_wait"] {
            guard let milliseconds = Int(wait), (0...60_000).contains(milliseconds) else {
                throw invalid("replica_wait must be a number of milliseconds between 0 and 60000")
            }
            replicaWait = .milliseconds(milliseconds)
        }
        switch parameters["target_session_attrs"] ?? "any" {
        case "any": requiresWritableServer = false
        case "read-write": requiresWritableServer = true
        case let other: throw invalid("target_session_attrs '\(other)' is not one of any, read-write")
        }
        for item in components.queryItems ?? [] where item.name == "replica" {
            let address = item.value ?? ""
            let parts = address.split(separator: ":", omittingEmptySubsequences: false)
            guard !address.isEmpty, parts.count <= 2, !parts[0].isEmpty,
                  let replicaPort = parts.count == 2 ? Int(parts[1]) : 5432, (1...65535).contains(replicaPort) else {
                throw invalid("the replica parameter '\(address)' is not host:port (replica=standby.internal:5432)")
            }
            replicas.append((String(parts[0]), replicaPort))
        }
    }

    /// The URL with only the first of its hosts, and the others, when its authority names several
    /// (`user:password@db1:5432,db2:5432`); nil when it names one.
    private static func hostList(
        in url: String, invalid: (String) -> RecordStoreError
    ) throws(RecordStoreError) -> (first: String, others: [(host: String, port: Int)])? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let hostsStart = authority.lastIndex(of: "@").map { authority.index(after: $0) } ?? authority.startIndex
        let hosts = authority[hostsStart...]
        guard hosts.contains(",") else { return nil }
        let entries = hosts.split(separator: ",", omittingEmptySubsequences: false)
        var others: [(host: String, port: Int)] = []
        for entry in entries.dropFirst() {
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
            guard !entry.isEmpty, parts.count <= 2, !parts[0].isEmpty,
                  let port = parts.count == 2 ? Int(parts[1]) : 5432, (1...65535).contains(port) else {
                throw invalid("the host '\(entry)' of the host list is not host:port (postgres://user@db1:5432,db2:5432/database)")
            }
            others.append((String(parts[0]), port))
        }
        return (String(url[..<hosts.startIndex]) + entries[0] + String(url[authorityEnd...]), others)
    }

    /// The location of each host the URL names, in order: this one with the host and port of
    /// each (the first is this one).
    var hostLocations: [PostgresLocation] {
        var first = self
        first.alternateHosts = []
        return [first] + alternateHosts.map { alternate in
            var location = first
            location.host = alternate.host
            location.port = alternate.port
            location.socketPath = nil
            return location
        }
    }

    /// How long a read waits for a replica's connection before it skips the replica for the
    /// primary: short, since the primary can answer.
    static let replicaConnectTimeout: Duration = .seconds(2)

    /// The location of each read replica: this one with the replica's host and port (and no
    /// Unix socket), the rest (user, database, schema) shared; the connect timeout at most
    /// ``replicaConnectTimeout``.
    var replicaLocations: [PostgresLocation] {
        replicas.map { replica in
            var location = self
            location.host = replica.host
            location.port = replica.port
            location.socketPath = nil
            location.replicas = []
            location.alternateHosts = []
            location.connectTimeout = min(connectTimeout, Self.replicaConnectTimeout)
            return location
        }
    }

    /// The URL with its password replaced by `***`.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }

    /// The PostgresNIO client configuration: TLS as `sslmode` asks, the schema as the search path.
    func configuration() -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketPath {
            configuration = .init(unixSocketPath: socketPath, username: user, password: password, database: database)
        } else {
            let tls: PostgresClient.Configuration.TLS = switch sslMode {
            case "disable": .disable
            case "require": .require(Self.tlsConfiguration)
            default: .prefer(Self.tlsConfiguration)
            }
            configuration = .init(host: host ?? "localhost", port: port, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = connectTimeout
        configuration.options.maximumConnections = 32
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        if let schema {
            configuration.options.additionalStartupParameters.append(("search_path", PostgresDialect.quote(schema)))
        }
        return configuration
    }

    /// As libpq's `sslmode`: `prefer` and `require` encrypt without checking the certificate.
    static var tlsConfiguration: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        return configuration
    }

    /// The configuration of a single connection (the first one, which checks the server and
    /// creates the store's tables), as the pool's.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let pool = configuration()
        var configuration: PostgresConnection.Configuration
        if let socket = pool.unixSocketPath {
            configuration = .init(unixSocketPath: socket, username: pool.username, password: pool.password, database: pool.database)
        } else {
            let tls: PostgresConnection.Configuration.TLS = switch sslMode {
            case "disable": .disable
            case "require": .require(try NIOSSLContext(configuration: Self.tlsConfiguration))
            default: .prefer(try NIOSSLContext(configuration: Self.tlsConfiguration))
            }
            configuration = .init(host: pool.host ?? "localhost", port: pool.port ?? 5432, username: pool.username,
                                  password: pool.password, database: pool.database, tls: tls)
        }
        let (seconds, attoseconds) = connectTimeout.components
        configuration.options.connectTimeout = .milliseconds(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        configuration.options.additionalStartupParameters = pool.options.additionalStartupParameters
        return configuration
    }
}
#endif
