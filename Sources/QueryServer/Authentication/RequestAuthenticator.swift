// Part of the Server trait: without it, this module is empty.
#if Server
import Crypto
import Foundation

/// Checks who sent a request, as CloudKit does.
///
/// A server-to-server request carries three headers: `X-Apple-CloudKit-Request-KeyID`,
/// `X-Apple-CloudKit-Request-ISO8601Date` (`2026-11-23T10:00:00Z`) and
/// `X-Apple-CloudKit-Request-SignatureV1`, the base64 DER ECDSA P-256 signature (SHA-256) of
/// `date:base64(sha256(body)):subpath`, where the subpath is the URL's path
/// (`/database/1/...`). A date further than ``maximumClockSkew`` from the server's clock is
/// refused, so a captured request cannot be replayed later. A request without a body may also
/// sign `date::subpath` (MistKit does). An API token comes as the `ckAPIToken` query parameter
/// and reads the public database; with a signed-in user's `ckWebAuthToken` (``WebAuthSessions``)
/// it is that user.
///
/// ```swift
/// let caller = try authenticator.caller(keyID: keyID, date: date, signature: signature,
///                                       apiToken: nil, subpath: "/database/1/...", body: body)
/// ```
struct RequestAuthenticator: Sendable {
    /// Who a request comes from.
    enum Caller: Sendable, Equatable {
        /// Anyone: the server was started without credentials (loopback only).
        case anyone
        /// The holder of a server-to-server key.
        case key(String)
        /// The holder of an API token without a signed-in user: reads the public database only.
        case apiToken
        /// A signed-in user (an API token with the user's `ckWebAuthToken`), by record name:
        /// reads and writes the public database and the user's own private one.
        case user(String)
        /// The holder of the administrator token (``ServerConfiguration/administratorToken``),
        /// on an administration route only (``RouteAccess/administer``).
        case administrator
    }

    /// How far a request's date may be from the server's clock.
    static let maximumClockSkew: TimeInterval = 300

    let credentials: ServerCredentials
    /// The administrator token (``ServerConfiguration/administratorToken``), or nil for none.
    let administratorToken: String?

    /// An authenticator of the server's credentials and administrator token.
    init(credentials: ServerCredentials, administratorToken: String? = nil) {
        self.credentials = credentials
        self.administratorToken = administratorToken
    }

    /// A request's credential once its cheap checks passed: what ``verify(_:subpath:body:)`` still
    /// checks against the body.
    struct Claim: Sendable {
        /// Who the request says it comes from.
        let caller: Caller
        /// For a signed request: its key, date text and signature (checked against the body later).
        fileprivate let signed: (key: Data, date: String, signature: Data)?
    }

    /// The caller a request's headers claim, checked as far as headers go: a known key ID, a date
    /// within ``maximumClockSkew``, a well-formed signature, or a known API token. Throws
    /// `AUTHENTICATION_REQUIRED` (no credential given) or `AUTHENTICATION_FAILED`. Nothing here
    /// reads the body or verifies a signature, so a refusal costs no more than its headers.
    func claim(keyID: String?, date: String?, signature: String?, apiToken: String?, now: Date = Date()) throws(ServerError) -> Claim {
        if credentials.isEmpty { return Claim(caller: .anyone, signed: nil) }
        if let keyID {
            guard let date, let signature else {
                throw ServerError(.authenticationFailed, "a signed request needs X-Apple-CloudKit-Request-ISO8601Date and X-Apple-CloudKit-Request-SignatureV1")
            }
            guard let key = credentials.publicKeyBytes(id: keyID) else { throw ServerError(.authenticationFailed, "unknown key ID") }
            guard let signed = Self.signedDate(date) else {
                throw ServerError(.authenticationFailed, "X-Apple-CloudKit-Request-ISO8601Date is not an ISO 8601 date such as 2026-11-23T10:00:00Z")
            }
            guard abs(signed.timeIntervalSince(now)) <= Self.maximumClockSkew else {
                throw ServerError(.authenticationFailed, "the request's date is more than \(Int(Self.maximumClockSkew)) seconds from the server's clock")
            }
            guard let der = Data(base64Encoded: signature), (try? P256.Signing.ECDSASignature(derRepresentation: der)) != nil else {
                throw ServerError(.authenticationFailed, "X-Apple-CloudKit-Request-SignatureV1 is not a base64 DER ECDSA signature")
            }
            return Claim(caller: .key(keyID), signed: (key, date, der))
        }
        if let apiToken {
            guard credentials.apiTokens.contains(apiToken) else { throw ServerError(.authenticationFailed, "unknown ckAPIToken") }
            return Claim(caller: .apiToken, signed: nil)
        }
        throw ServerError(.authenticationRequired, "this server needs a signed request (X-Apple-CloudKit-Request-KeyID ...) or a ckAPIToken")
    }

    /// The instant of a signed request's date header, as CloudKit's clients write it and
    /// `ISO8601DateFormatter` reads it by default: `2026-11-23T10:00:00Z`, or with an offset,
    /// `2026-11-23T12:00:00+02:00`; nil for anything else (fractions of a second, text after
    /// the date). Parsed by Foundation's own ISO 8601 style: `ISO8601DateFormatter` builds an ICU
    /// formatter for each request, a tenth of a small write's time.
    static func signedDate(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        let utc = bytes.count == 20 && bytes[19] == UInt8(ascii: "Z")
        let offset = bytes.count == 25 && (bytes[19] == UInt8(ascii: "+") || bytes[19] == UInt8(ascii: "-")) && bytes[22] == UInt8(ascii: ":")
        guard utc || offset else { return nil }
        return try? Date(text, strategy: .iso8601)
    }

    /// The administrator's claim of a request to an administration route: nil when the server has
    /// no administrator token or the request sends no `Authorization: Bearer` token (its other
    /// credentials then decide); `ACCESS_DENIED` when the token sent is not the administrator's.
    /// The token is compared in constant time.
    ///
    /// ```swift
    /// let claim = try authenticator.administratorClaim(authorization: "Bearer s3cr3t-admin")   // .administrator
    /// ```
    func administratorClaim(authorization: String?) throws(ServerError) -> Claim? {
        guard let administratorToken, let authorization, authorization.hasPrefix("Bearer ") else { return nil }
        // Digests of equal length: the comparison tells nothing of the token's length either.
        let given = Array(SHA256.hash(data: Data(authorization.utf8.dropFirst("Bearer ".utf8.count))))
        guard Self.constantTimeEqual(given, Array(SHA256.hash(data: Data(administratorToken.utf8)))) else {
            throw ServerError(.accessDenied, Self.administrationRefusal + " (the bearer token sent is not the administrator token)")
        }
        return Claim(caller: .administrator, signed: nil)
    }

    /// Why a caller may not use an administration route.
    static let administrationRefusal =
        "administration needs a server-to-server key with full access or the administrator token (Authorization: Bearer TOKEN)"

    /// Whether two byte strings are equal, in a time that depends on their lengths only.
    static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(lhs, rhs) { difference |= left ^ right }
        return difference == 0
    }

    /// Checks a claim's signature against the request's path and body (`AUTHENTICATION_FAILED`
    /// when it does not match). The signed subpath is the path with its query string as sent
    /// (CloudKit JS signs `/database/1/...?ckjsBuildVersion=...`), or the bare path (MistKit
    /// signs that): `subpaths` lists what the request may have signed, the one as sent first. A
    /// request without a body may sign its body hash as `base64(sha256(""))` or, as MistKit
    /// does, as nothing (`date::subpath`): both say the same.
    func verify(_ claim: Claim, subpaths: [String], body: some Collection<UInt8>) throws(ServerError) {
        guard let signed = claim.signed else { return }
        guard let key = try? P256.Signing.PublicKey(rawRepresentation: signed.key),
              let signature = try? P256.Signing.ECDSASignature(derRepresentation: signed.signature)
        else { throw ServerError(.authenticationFailed, "the signature does not match the request") }
        let digest = Self.bodyDigest(body)
        for subpath in subpaths {
            if key.isValidSignature(signature, for: Data("\(signed.date):\(digest):\(subpath)".utf8)) { return }
            if body.isEmpty, key.isValidSignature(signature, for: Data("\(signed.date)::\(subpath)".utf8)) { return }
        }
        throw ServerError(.authenticationFailed, "the signature does not match the request (signed over its path, with or without its query string)")
    }

    /// What a request may have signed as its subpath: its path with the query string as sent,
    /// then its bare path (the same once when it has no query string).
    static func signedSubpaths(target: String, path: String) -> [String] {
        target == path ? [path] : [target, path]
    }

    /// The caller of a request: ``claim(keyID:date:signature:apiToken:now:)`` then
    /// ``verify(_:subpaths:body:)``.
    func caller(
        keyID: String?, date: String?, signature: String?, apiToken: String?, subpath: String, body: some Collection<UInt8>,
        now: Date = Date()
    ) throws(ServerError) -> Caller {
        let claim = try claim(keyID: keyID, date: date, signature: signature, apiToken: apiToken, now: now)
        try verify(claim, subpaths: [subpath], body: body)
        return claim.caller
    }

    /// What a server-to-server request signs: `date:base64(sha256(body)):subpath`.
    static func message(date: String, subpath: String, body: some Collection<UInt8>) -> String {
        "\(date):\(bodyDigest(body)):\(subpath)"
    }

    /// The base64 SHA-256 of a body, as signatures carry it.
    static func bodyDigest(_ body: some Collection<UInt8>) -> String {
        Data(SHA256.hash(data: Data(body))).base64EncodedString()
    }

    /// Whether a caller may use a route of the given access on a database. An API token without
    /// a user reads the public database; writing, or the private database, needs a signed-in
    /// user: `AUTHENTICATION_REQUIRED` (the middleware adds where to sign in). Administration
    /// (``RouteAccess/administer``) is the administrator's, a key's that `keysHeldToRoles` does not
    /// hold, or anyone's on a server without credentials: others are `ACCESS_DENIED`. The
    /// administrator token is good for administration only.
    ///
    /// ```swift
    /// try RequestAuthenticator.check(.key("d7a4"), access: .administer, database: .public)   // passes
    /// try RequestAuthenticator.check(.apiToken, access: .administer, database: .public)      // ACCESS_DENIED
    /// ```
    static func check(_ caller: Caller, access: RouteAccess, database: Namespace.Database, keysHeldToRoles: Set<String> = []) throws(ServerError) {
        if access == .administer {
            switch caller {
            case .anyone, .administrator: return
            case .key(let keyID) where !keysHeldToRoles.contains(keyID): return
            case .key: throw ServerError(.accessDenied, administrationRefusal + "; this key is held to the security roles")
            case .apiToken, .user: throw ServerError(.accessDenied, administrationRefusal + "; an API token or a signed-in user is never an administrator")
            }
        }
        if caller == .administrator { throw ServerError(.accessDenied, "the administrator token serves the administration routes only") }
        guard caller == .apiToken else { return }
        if access == .write { throw ServerError(.authenticationRequired, "writing needs a signed-in user (ckWebAuthToken) or a server-to-server key") }
        if case .shared = database { throw ServerError(.authenticationRequired, "the shared database needs a signed-in user (ckWebAuthToken) or a server-to-server key") }
        if database != .public { throw ServerError(.authenticationRequired, "the private database needs a signed-in user (ckWebAuthToken) or a server-to-server key") }
    }
}
#endif
