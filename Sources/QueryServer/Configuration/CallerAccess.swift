// Part of the Server trait: without it, this module is empty.
#if Server

/// Who may call a server: its keys and API tokens, the origins whose pages may call it, and the
/// keys held to the security roles. The part of ``ServerConfiguration`` that a running server
/// reads again on SIGHUP (``ServerConfiguration/callerAccessSource``), so that an operator can
/// add or rotate a key, revoke a token or allow an origin without dropping a connection.
///
/// ```swift
/// var access = CallerAccess()
/// try access.credentials.addKey("2f1b...=/etc/query/eckey.pem")
/// access.allowedOrigins = ["https://notes.example"]
/// ```
public struct CallerAccess: Sendable {
    /// The server-to-server keys and API tokens (``ServerConfiguration/credentials``).
    public var credentials: ServerCredentials
    /// The web origins whose pages may call the server (``ServerConfiguration/allowedOrigins``).
    public var allowedOrigins: [String]
    /// The keys the public database's security roles hold like a user
    /// (``ServerConfiguration/keysHeldToSecurityRoles``).
    public var keysHeldToSecurityRoles: Set<String>

    /// Access made of these parts (none by default: a server that answers anyone on loopback).
    public init(credentials: ServerCredentials = ServerCredentials(), allowedOrigins: [String] = [], keysHeldToSecurityRoles: Set<String> = []) {
        self.credentials = credentials
        self.allowedOrigins = allowedOrigins
        self.keysHeldToSecurityRoles = keysHeldToSecurityRoles
    }

    /// One line for the log: how many of each there are (never a key or a token itself).
    var summary: String {
        "\(credentials.keyIDs.count) keys, \(credentials.apiTokens.count) API tokens, \(allowedOrigins.count) allowed origins, "
            + "\(keysHeldToSecurityRoles.count) keys held to roles"
    }
}
#endif
