// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import Hummingbird
import NIOCore

/// What the server's middleware learn about a request before its route runs: the request's ID,
/// the client's address, and, for the database routes, the caller, the namespace and the body
/// (read only once the caller passed every check that needs no body).
///
/// ```swift
/// database.post("records/query") { _, context in
///     try await service.queryAnswer(try context.json(), in: try context.requireNamespace())
/// }
/// ```
struct ServerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client's IP address (failed authentications are throttled per address): the
    /// connection's peer, or the client a trusted proxy names (``ClientAddressMiddleware``).
    var clientAddress: String
    /// The connection's peer address (a proxy's, behind one), nil when the socket has none.
    let peerAddress: String?
    /// Completes when the request's connection closes (a long-lived answer lets go of what it
    /// holds then, ``StreamSlots``).
    let connectionClosed: EventLoopFuture<Void>
    /// The connection's event loop (a streamed answer waits on it between writes, ``AssetsController``).
    let eventLoop: any EventLoop
    /// The request's ID: Hummingbird's (``RequestContext/id``) as a UUID, the `uuid` of its
    /// error answer and of its log lines (``RequestUUID``).
    var requestID: String { RequestUUID.of(self) }
    /// Who sent the request (set by ``AuthenticationMiddleware``).
    var caller: RequestAuthenticator.Caller = .anyone
    /// The request's namespace (set by ``AuthenticationMiddleware`` on the database routes).
    var namespace: Namespace?
    /// Who the request acts for, and whether security roles hold it (set by
    /// ``AuthenticationMiddleware`` on the database routes; nil elsewhere).
    var principal: RequestPrincipal?
    /// The request's body, read by ``AuthenticationMiddleware`` once the caller passed its checks.
    var body = ByteBuffer()
    /// What the request's log line says, filled in by the middleware and the route
    /// (``RequestLogEntry``; shared by every copy of this context).
    let requestLog = RequestLogEntry()

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
        connectionClosed = source.channel.closeFuture
        eventLoop = source.channel.eventLoop
        clientAddress = peerAddress ?? "unknown"
    }

    /// The namespace ``AuthenticationMiddleware`` resolved (the database routes always have one):
    /// `BAD_REQUEST` for a shared database's, unless the route answers it (`answeringShared`).
    func requireNamespace(answeringShared: Bool = false) throws(ServerError) -> Namespace {
        guard let namespace else { throw ServerError(.internalError, "the route has no namespace") }
        if case .shared = namespace.database, !answeringShared {
            throw ServerError(.badRequest, "the shared database answers \(Self.sharedDatabaseRoutes.joined(separator: ", ")); not this route")
        }
        return namespace
    }

    /// The routes that answer the shared database (their handlers pass `answeringShared`).
    static let sharedDatabaseRoutes = [
        "records/query", "records/lookup", "records/modify", "records/changes", "changes/zone", "changes/database", "zones/list", "zones/lookup",
        "subscriptions/list", "subscriptions/lookup", "subscriptions/modify", "subscriptions/events", "schema", "predicates/check", "records/explain",
    ]

    /// The body as a JSON object (an empty body is an empty object).
    func json() throws(ServerError) -> JSONValue {
        guard body.readableBytes > 0 else { return .object([:]) }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: body.readableBytesView)
        } catch {
            throw ServerError(.badRequest, "the request body is not valid JSON: \(error)")
        }
        guard case .object = value else { throw ServerError(.badRequest, "the request body is a JSON object, not \(value.kindName)") }
        return value
    }
}
#endif
