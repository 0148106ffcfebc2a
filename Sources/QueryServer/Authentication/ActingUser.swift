// Part of the Server trait: without it, this module is empty.
#if Server
import HTTPTypes
import Hummingbird

/// An administrator acting as a user (the console's "act as"): a reading request of the private
/// or shared database with the header `X-Query-Act-As: USER_RECORD_NAME` answers as that
/// signed-in user's request would, their private database or the records shared with them.
///
/// Only an administrator may act as a user, as ``RouteAccess/administer`` says who that is: the
/// bearer of the administrator token, a server-to-server key with full access, or anyone on a
/// server without credentials. An API token, a signed-in user or a key held to the security
/// roles is `ACCESS_DENIED`. Acting is for reading: a writing or administration route, and the
/// public database (where the administrator reads everything already), are `BAD_REQUEST`.
///
/// ```swift
/// // curl -H 'Authorization: Bearer TOKEN' -H 'X-Query-Act-As: _3f…' \
/// //      -d '{"query": {"recordType": "Note"}}' http://127.0.0.1:8080/database/1/iCloud.example/development/private/records/query
/// let acting = try ActingUser.name(in: request.headers)   // "_3f…", or nil
/// ```
enum ActingUser {
    /// The header that names the user an administrator acts as.
    static let header = HTTPField.Name("X-Query-Act-As")!

    /// The user record name the request acts as, or nil without the header. A name that is not
    /// a signed-in user's record name (`_` and 1 to 64 ASCII letters, digits, `-` or `_`) is `BAD_REQUEST`.
    static func name(in headers: HTTPFields) throws(ServerError) -> String? {
        guard let name = headers[header] else { return nil }
        let body = name.utf8.dropFirst()
        guard name.hasPrefix("_"), (1...64).contains(body.count),
              body.allSatisfy({ $0.isASCIILetterOrDigit || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }) else {
            throw ServerError(.badRequest, "\(header.rawName) names a user by record name: '_' and 1 to 64 ASCII letters, digits, '-' or '_'")
        }
        return name
    }

    /// The caller the request is answered as: the user `name`, once `caller` is checked to be
    /// an administrator, the route to read, and the database to be private or shared.
    static func caller(
        acting name: String, for caller: RequestAuthenticator.Caller, access: RouteAccess, database: String?, keysHeldToRoles: Set<String>
    ) throws(ServerError) -> RequestAuthenticator.Caller {
        do {
            try RequestAuthenticator.check(caller, access: .administer, database: .public, keysHeldToRoles: keysHeldToRoles)
        } catch {
            throw ServerError(.accessDenied, "only an administrator acts as a user: " + error.reason)
        }
        guard access == .read else {
            throw ServerError(.badRequest, "acting as a user (\(header.rawName)) is for reading: this route writes or administers")
        }
        guard database == "private" || database == "shared" else {
            throw ServerError(.badRequest, "acting as a user (\(header.rawName)) reads their private or shared database, not the public one")
        }
        return .user(name)
    }
}

private extension UInt8 {
    var isASCIILetterOrDigit: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
#endif
