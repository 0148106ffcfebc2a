// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Checks the caller of a database route and reads its body, in the order that keeps refusals
/// cheap: a client address with too many failed authentications is `THROTTLED`; a
/// `Content-Length` over the limit is `QUOTA_EXCEEDED`; the key ID, date, signature form or API
/// token (``RequestAuthenticator/claim(keyID:date:signature:apiToken:now:)``), the namespace and
/// the caller's right to the route's declared ``RouteAccess`` are checked from the headers; only
/// then is the body read, and the signature verified over it.
///
/// Rates are charged so that nobody can spend another caller's: an API token's bucket when the
/// token is known (it is its own proof), a key's bucket only once the request's signature
/// verified, so that forged requests naming a real key ID never throttle that key. Each failed
/// authentication counts against the client's address (the real client's, behind a
/// ``ServerConfiguration/trustedProxies`` proxy: ``ClientAddressMiddleware``); a failed signature
/// also counts against the key ID it claimed, and past that bucket's burst such failures answer
/// `THROTTLED` instead of `AUTHENTICATION_FAILED`, while the key's valid requests still pass.
///
/// A request with an API token and a signed-in user's `ckWebAuthToken` is that user
/// (``WebAuthSessions``): its answer, an error's too, carries the session's next token in
/// `X-Apple-CloudKit-Web-Auth-Token`. A route that needs a user, called without one, answers
/// `AUTHENTICATION_REQUIRED` with the `redirectURL` of the server's sign-in page. A signature
/// verifies over the path with its query string as sent, or over the bare path.
///
/// An administration route (``RouteAccess/administer``) takes the administrator token
/// (`Authorization: Bearer TOKEN`, ``ServerConfiguration/administratorToken``) before any other
/// credential: the right token is the administrator, a wrong one `ACCESS_DENIED` (and a failed
/// authentication of the address); without it, a key with full access passes, and a request
/// with no credential at all is `AUTHENTICATION_REQUIRED` saying what administration needs. So
/// does a reading request that acts as a user (`X-Query-Act-As`, ``ActingUser``), answered as
/// that user's once its caller is checked to be an administrator.
///
/// ```swift
/// let reading = router.group("database/1/:container/:environment/:database")
///     .add(middleware: AuthenticationMiddleware(configuration: configuration, current: current, access: .read, limiters: limiters,
///                                               sessions: WebAuthSessions(store: store)))
/// ```
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let configuration: ServerConfiguration
    /// The keys, tokens and held keys now, with each key's private database user
    /// (``CloudKitServer/reloadCallerAccess()`` replaces them).
    let current: CurrentCallerAccess
    /// Requests per caller (key ID or API token).
    let limiter: RateLimiter
    /// Failed authentications per client address, and failed signatures per claimed key ID.
    let failures: RateLimiter
    /// What the routes behind this middleware do (declared with each route, ``ServerRoutes``).
    let access: RouteAccess
    /// Signed-in users' sessions (`ckWebAuthToken`).
    let sessions: WebAuthSessions

    /// The middleware of the routes of one access. Every instance over one configuration shares
    /// its rate and failure buckets (``RequestRateLimiters``), so that a caller's
    /// requests count alike whichever route they take.
    init(configuration: ServerConfiguration, current: CurrentCallerAccess, access: RouteAccess, limiters: RequestRateLimiters,
         sessions: WebAuthSessions) {
        self.configuration = configuration
        self.sessions = sessions
        self.current = current
        self.access = access
        limiter = limiters.requests
        failures = limiters.failures
    }

    static let keyIDHeader = HTTPField.Name("X-Apple-CloudKit-Request-KeyID")!
    static let dateHeader = HTTPField.Name("X-Apple-CloudKit-Request-ISO8601Date")!
    static let signatureHeader = HTTPField.Name("X-Apple-CloudKit-Request-SignatureV1")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let address = "address:" + context.clientAddress
        let log = context.requestLog
        try log.refuse(.failedAuthentications) { () throws(ServerError) in try failures.check(address) }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > configuration.maximumBodySize {
            log.update { $0.refusal = .bodyTooLarge }
            throw ServerError(.quotaExceeded, "the request body is larger than \(configuration.maximumBodySize) bytes")
        }
        let apiToken = request.uri.queryParameters.get("ckAPIToken").map { String($0) }
        let callerAccess = current.snapshot
        // An administrator acting as a user (`X-Query-Act-As`), checked once the caller is known.
        let acting = try ActingUser.name(in: request.headers)
        let claim: RequestAuthenticator.Claim
        do throws(ServerError) {
            // An administration route, or an administrator acting as a user, takes the
            // administrator token before any other credential.
            if access == .administer || acting != nil, let administrator = try callerAccess.authenticator.administratorClaim(authorization: request.headers[.authorization]) {
                claim = administrator
            } else {
                claim = try callerAccess.authenticator.claim(keyID: request.headers[Self.keyIDHeader], date: request.headers[Self.dateHeader],
                                                signature: request.headers[Self.signatureHeader], apiToken: apiToken)
            }
        } catch {
            failures.record(address)
            log.update { $0.refusal = .authentication }
            if access == .administer, error.code == .authenticationRequired {
                throw ServerError(.authenticationRequired, RequestAuthenticator.administrationRefusal)
            }
            throw error
        }
        var caller = claim.caller
        var nextToken: String?
        // A signed-in user's request pays its rate before the store reads its session; an API
        // token's request without a user pays it once its access is checked.
        if case .apiToken = claim.caller, let webAuthToken = Self.webAuthToken(request) {
            try log.refuse(.rateLimit) { () throws(ServerError) in try limiter.admit("token:" + (apiToken ?? "")) }
            do {
                let signedIn = try await sessions.authenticate(webAuthToken, container: context.parameters.get("container") ?? "")
                caller = .user(signedIn.userRecordName)
                nextToken = signedIn.nextToken
            } catch {
                if error.code == .authenticationFailed { failures.record(address) }
                log.update { $0.refusal = .authentication }
                throw SignInPage.pointing(error, request: request, context: context, configuration: configuration)
            }
        }
        if let acting {
            try log.refuse(.authentication) { () throws(ServerError) in
                caller = try ActingUser.caller(acting: acting, for: caller, access: access, database: context.parameters.get("database"),
                                               keysHeldToRoles: configuration.keysHeldToSecurityRoles)
            }
        }
        let namespace = try Self.namespace(context.parameters, caller: caller, container: configuration.container, privateUsers: callerAccess.privateUsers)
        try log.refuse(.authentication) { () throws(ServerError) in
            do throws(ServerError) {
                try RequestAuthenticator.check(caller, access: access, database: namespace.database,
                                               keysHeldToRoles: configuration.keysHeldToSecurityRoles)
            } catch {
                throw SignInPage.pointing(error, request: request, context: context, configuration: configuration)
            }
        }
        if case .apiToken = caller {
            try log.refuse(.rateLimit) { () throws(ServerError) in try limiter.admit("token:" + (apiToken ?? "")) }
        }
        let body: ByteBuffer
        do {
            body = try await Self.body(request, limit: configuration.maximumBodySize)
        } catch {
            if error.code == .quotaExceeded { log.update { $0.refusal = .bodyTooLarge } }
            throw error
        }
        do {
            try callerAccess.authenticator.verify(claim, subpaths: RequestAuthenticator.signedSubpaths(target: request.head.path ?? request.uri.path, path: request.uri.path),
                                     body: body.readableBytesView)
        } catch {
            failures.record(address)
            log.update { $0.refusal = .authentication }
            if case .key(let keyID) = claim.caller {
                try log.refuse(.failedAuthentications) { () throws(ServerError) in try failures.admit("key:" + keyID) }
            }
            throw error
        }
        if case .key(let keyID) = claim.caller {
            try log.refuse(.rateLimit) { () throws(ServerError) in try limiter.admit("key:" + keyID) }
        }
        if claim.caller == .administrator {
            try log.refuse(.rateLimit) { () throws(ServerError) in try limiter.admit("administrator") }
        }
        context.caller = caller
        context.namespace = namespace
        context.principal = RequestPrincipal.of(
            caller, database: namespace.database, privateUsers: callerAccess.privateUsers, keysHeldToRoles: callerAccess.access.keysHeldToSecurityRoles)
        context.requestLog.update { log in
            log.caller = RequestLogEntry.name(of: caller)
            if acting != nil { log.caller = RequestLogEntry.name(of: claim.caller) + " acting as " + RequestLogEntry.name(of: caller) }
            log.environment = namespace.environment.rawValue
            switch namespace.database {
            case .public: log.database = "public"
            case .private: log.database = "private"
            case .shared: log.database = "shared"
            }
        }
        context.body = body
        guard let nextToken else { return try await next(request, context) }
        // The session moved on: every answer, an error's too, hands the client its next token.
        do {
            var response = try await next(request, context)
            response.headers[Self.webAuthTokenHeader] = nextToken
            return response
        } catch {
            throw ServerError.answering(error).adding(Self.webAuthTokenHeader, nextToken)
        }
    }

    /// The header that carries a signed-in user's next web auth token, in requests (instead of
    /// the `ckWebAuthToken` parameter) and in answers.
    static let webAuthTokenHeader = HTTPField.Name("X-Apple-CloudKit-Web-Auth-Token")!

    /// The request's web auth token: the `ckWebAuthToken` query parameter (percent-decoded), or
    /// the `X-Apple-CloudKit-Web-Auth-Token` header.
    static func webAuthToken(_ request: Request) -> String? {
        if let token = request.uri.queryParameters.get("ckWebAuthToken"), !token.isEmpty { return String(token) }
        return request.headers[webAuthTokenHeader].flatMap { $0.isEmpty ? nil : $0 }
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
            // Each key and each signed-in user has a database of its own; a server without
            // credentials has one user.
            switch caller {
            case .key(let keyID):
                return Namespace(environment: environment, database: .private(user: privateUsers[keyID] ?? PrivateDatabaseUser.name(keyID: keyID)))
            case .user(let userRecordName):
                return Namespace(environment: environment, database: .private(user: UserRecordName.signedInDatabasePrefix + userRecordName.dropFirst()))
            case .anyone, .administrator:
                // The administrator's routes answer the public database only.
                return Namespace(environment: environment, database: .private(user: WireRecord.ownerName))
            case .apiToken:
                // The route's access check answers it (AUTHENTICATION_REQUIRED, with where to sign in).
                return Namespace(environment: environment, database: .private(user: WireRecord.ownerName))
            }
        case "shared":
            // The records other users shared with the caller, who must be a user (or a key's user).
            let user: String
            switch caller {
            case .key, .user: user = try UserRecordName.of(caller, privateUsers: privateUsers)
            case .anyone, .administrator, .apiToken: user = WireRecord.ownerName
            }
            return Namespace(environment: environment, database: .shared(user: user))
        default: throw ServerError(.badRequest, "the database is 'public', 'private' or 'shared'")
        }
    }
}
#endif
