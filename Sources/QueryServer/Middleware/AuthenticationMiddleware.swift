// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Checks the caller of a database route and reads its body, in the order that keeps refusals
/// cheap: a client address with too many failed authentications is `THROTTLED`; a
/// `Content-Length` over the limit is `QUOTA_EXCEEDED`; the key ID, date, signature form or API
/// token (``RequestAuthenticator/claim(keyID:date:signature:apiToken:now:)``), the namespace,
/// the caller's access and its rate are checked from the headers; only then is the body read,
/// and the signature verified over it. A refusal answers without reading the body, and every
/// failed authentication counts against the client's address.
///
/// ```swift
/// database.add(middleware: AuthenticationMiddleware(configuration: configuration))
/// ```
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let configuration: ServerConfiguration
    let authenticator: RequestAuthenticator
    /// Requests per caller (key ID or API token).
    let limiter: RateLimiter
    /// Failed authentications per client address.
    let failures: RateLimiter
    /// The private database user of each key ID (``PrivateDatabaseUser/resolve(keyIDs:storedZones:)``).
    let privateUsers: [String: String]

    init(configuration: ServerConfiguration, privateUsers: [String: String]) {
        self.configuration = configuration
        self.privateUsers = privateUsers
        authenticator = RequestAuthenticator(credentials: configuration.credentials)
        limiter = RateLimiter(rate: configuration.rateLimit, burst: configuration.rateBurst)
        failures = RateLimiter(rate: configuration.failedAuthenticationRate, burst: configuration.failedAuthenticationBurst)
    }

    static let keyIDHeader = HTTPField.Name("X-Apple-CloudKit-Request-KeyID")!
    static let dateHeader = HTTPField.Name("X-Apple-CloudKit-Request-ISO8601Date")!
    static let signatureHeader = HTTPField.Name("X-Apple-CloudKit-Request-SignatureV1")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let address = "address:" + context.clientAddress
        try failures.check(address)
        if let length = request.headers[.contentLength].flatMap(Int.init), length > configuration.maximumBodySize {
            throw ServerError(.quotaExceeded, "the request body is larger than \(configuration.maximumBodySize) bytes")
        }
        let apiToken = request.uri.queryParameters.get("ckAPIToken").map { String($0) }
        let claim: RequestAuthenticator.Claim
        do {
            claim = try authenticator.claim(keyID: request.headers[Self.keyIDHeader], date: request.headers[Self.dateHeader],
                                            signature: request.headers[Self.signatureHeader], apiToken: apiToken)
        } catch {
            failures.record(address)
            throw error
        }
        let namespace = try Self.namespace(context.parameters, caller: claim.caller, container: configuration.container, privateUsers: privateUsers)
        try RequestAuthenticator.check(claim.caller, writes: request.method == .post && Self.writes(request.uri.path), database: namespace.database)
        switch claim.caller {
        case .anyone: break
        case .key(let keyID): try limiter.admit("key:" + keyID)
        case .apiToken: try limiter.admit("token:" + (apiToken ?? ""))
        }
        let body = try await Self.body(request, limit: configuration.maximumBodySize)
        do {
            try authenticator.verify(claim, subpath: request.uri.path, body: body.readableBytesView)
        } catch {
            failures.record(address)
            throw error
        }
        context.caller = claim.caller
        context.namespace = namespace
        context.body = body
        return try await next(request, context)
    }

    /// The routes that write: refused to API tokens.
    static let writingOperations: Set<String> = ["records/modify", "zones/modify", "subscriptions/modify", "assets/upload"]

    static func writes(_ path: String) -> Bool {
        writingOperations.contains { path.hasSuffix("/" + $0) }
    }

    /// A request's body, at most `limit` bytes.
    static func body(_ request: Request, limit: Int) async throws(ServerError) -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw ServerError(.quotaExceeded, "the request body is larger than \(limit) bytes")
        } catch {
            throw ServerError(.badRequest, "the request body could not be read")
        }
    }

    /// The namespace a request's path names.
    static func namespace(_ parameters: Parameters, caller: RequestAuthenticator.Caller, container served: String?, privateUsers: [String: String]
    ) throws(ServerError) -> Namespace {
        let container = parameters.get("container") ?? ""
        if let served, container != served {
            throw ServerError(.notFound, "this server serves the container '\(served)', not '\(container.prefix(80))'")
        }
        guard let environment = parameters.get("environment").flatMap(Namespace.Environment.init(rawValue:)) else {
            throw ServerError(.badRequest, "the environment is 'development' or 'production'")
        }
        switch parameters.get("database") {
        case "public": return Namespace(environment: environment, database: .public)
        case "private":
            // Each key is a user of its own; a server without credentials has one user.
            guard case .key(let keyID) = caller else {
                if caller == .anyone { return Namespace(environment: environment, database: .private(user: WireRecord.ownerName)) }
                throw ServerError(.accessDenied, "the private database needs a server-to-server key")
            }
            return Namespace(environment: environment, database: .private(user: privateUsers[keyID] ?? PrivateDatabaseUser.name(keyID: keyID)))
        case "shared": throw ServerError(.badRequest, "the shared database is not supported by this server")
        default: throw ServerError(.badRequest, "the database is 'public' or 'private'")
        }
    }
}
#endif
