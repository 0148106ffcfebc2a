// Part of the Server trait: without it, this module is empty.
#if Server
import Hummingbird

/// Answers only `/health` while the server holds more connections than its cap
/// (``ConnectionCount``); every other request gets `TRY_AGAIN_LATER` (503) with `retryAfter`.
///
/// ```swift
/// router.add(middleware: ConnectionCapMiddleware(connections: count))
/// ```
struct ConnectionCapMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let connections: ConnectionCount

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if connections.isOverCap, request.uri.path != "/health" {
            throw ServerError(.tryAgainLater, "the server holds its most connections (\(connections.cap)); retry later", retryAfter: 1)
        }
        return try await next(request, context)
    }
}
#endif
