// Part of the Server trait: without it, this module is empty.
#if Server
import Hummingbird

/// Answers only `/health` while the server holds more connections than its cap
/// (``ConnectionCount``), or the request's client address more than its own
/// (``ClientConnectionLimiter``); every other request gets `TRY_AGAIN_LATER` (503) with
/// `retryAfter`.
///
/// ```swift
/// router.add(middleware: ConnectionCapMiddleware(connections: count, clients: limiter))
/// ```
struct ConnectionCapMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let connections: ConnectionCount
    let clients: ClientConnectionLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.path != "/health", request.uri.path != "/health/ready" else { return try await next(request, context) }
        if connections.isOverCap {
            context.requestLog.update { $0.refusal = .connectionCap }
            throw ServerError(.tryAgainLater, "the server holds its most connections (\(connections.cap)); retry later", retryAfter: 1)
        }
        if let peer = context.peerAddress, clients.isOverCap(peer) {
            context.requestLog.update { $0.refusal = .clientConnectionCap }
            throw ServerError(.tryAgainLater, "this client holds more than its \(clients.cap) connections; close some and retry", retryAfter: 1)
        }
        return try await next(request, context)
    }
}
#endif
