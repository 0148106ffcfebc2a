import Crypto
import Foundation

/// Checks who sent a request, as CloudKit does.
///
/// A server-to-server request carries three headers: `X-Apple-CloudKit-Request-KeyID`,
/// `X-Apple-CloudKit-Request-ISO8601Date` (`2026-11-23T10:00:00Z`) and
/// `X-Apple-CloudKit-Request-SignatureV1`, the base64 DER ECDSA P-256 signature (SHA-256) of
/// `date:base64(sha256(body)):subpath`, where the subpath is the URL's path
/// (`/database/1/...`). A date further than ``maximumClockSkew`` from the server's clock is
/// refused, so a captured request cannot be replayed later. An API token comes as the
/// `ckAPIToken` query parameter and reads the public database only.
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
        /// The holder of an API token: reads the public database only.
        case apiToken
    }

    /// How far a request's date may be from the server's clock.
    static let maximumClockSkew: TimeInterval = 300

    let credentials: ServerCredentials

    /// The caller of a request, or `AUTHENTICATION_REQUIRED` (no credential given) or
    /// `AUTHENTICATION_FAILED` (a credential that does not check out).
    func caller(
        keyID: String?, date: String?, signature: String?, apiToken: String?, subpath: String, body: some Collection<UInt8>,
        now: Date = Date()
    ) throws(ServerError) -> Caller {
        if credentials.isEmpty { return .anyone }
        if let keyID {
            guard let date, let signature else {
                throw ServerError(.authenticationFailed, "a signed request needs X-Apple-CloudKit-Request-ISO8601Date and X-Apple-CloudKit-Request-SignatureV1")
            }
            try verify(keyID: keyID, date: date, signature: signature, subpath: subpath, body: body, now: now)
            return .key(keyID)
        }
        if let apiToken {
            guard credentials.apiTokens.contains(apiToken) else { throw ServerError(.authenticationFailed, "unknown ckAPIToken") }
            return .apiToken
        }
        throw ServerError(.authenticationRequired, "this server needs a signed request (X-Apple-CloudKit-Request-KeyID ...) or a ckAPIToken")
    }

    private func verify(keyID: String, date: String, signature: String, subpath: String, body: some Collection<UInt8>, now: Date) throws(ServerError) {
        guard let key = credentials.publicKey(id: keyID) else { throw ServerError(.authenticationFailed, "unknown key ID") }
        guard let signed = ISO8601DateFormatter().date(from: date) else {
            throw ServerError(.authenticationFailed, "X-Apple-CloudKit-Request-ISO8601Date is not an ISO 8601 date such as 2026-11-23T10:00:00Z")
        }
        guard abs(signed.timeIntervalSince(now)) <= Self.maximumClockSkew else {
            throw ServerError(.authenticationFailed, "the request's date is more than \(Int(Self.maximumClockSkew)) seconds from the server's clock")
        }
        guard let der = Data(base64Encoded: signature), let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: der) else {
            throw ServerError(.authenticationFailed, "X-Apple-CloudKit-Request-SignatureV1 is not a base64 DER ECDSA signature")
        }
        let message = Self.message(date: date, subpath: subpath, body: body)
        guard key.isValidSignature(ecdsa, for: Data(message.utf8)) else {
            throw ServerError(.authenticationFailed, "the signature does not match the request")
        }
    }

    /// What a server-to-server request signs: `date:base64(sha256(body)):subpath`.
    static func message(date: String, subpath: String, body: some Collection<UInt8>) -> String {
        let digest = Data(SHA256.hash(data: Data(body))).base64EncodedString()
        return "\(date):\(digest):\(subpath)"
    }

    /// Whether a caller may run an operation on a database.
    static func check(_ caller: Caller, writes: Bool, database: Namespace.Database) throws(ServerError) {
        guard caller == .apiToken else { return }
        if writes { throw ServerError(.accessDenied, "an API token reads the public database; writing needs a server-to-server key") }
        if database != .public { throw ServerError(.accessDenied, "an API token reads the public database only") }
    }
}
