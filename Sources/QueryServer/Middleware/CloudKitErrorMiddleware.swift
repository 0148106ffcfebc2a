// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// The outermost middleware: turns every error into CloudKit's answer `{uuid, serverErrorCode,
/// reason}` with the code's HTTP status (``ServerError`` makes it, with the request's ID from
/// Hummingbird's context, ``RequestUUID``). An unknown route is
/// `NOT_FOUND` (404); a known route called with another method is `BAD_REQUEST` with status 405
/// and an `Allow` header. Refusals are logged at debug level only, so a flood of bad requests
/// writes no log; a server failure (`INTERNAL_ERROR`) is logged as an error.
///
/// ```swift
/// router.add(middleware: CloudKitErrorMiddleware(logger: logger, routes: routes))
/// ```
struct CloudKitErrorMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let logger: Logger
    /// The server's routes, to tell a wrong method (405) from an unknown path (404).
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let failure: ServerError
        do {
            let response = try await next(request, context)
            // The ID is made only for a log line written (the metadata is an autoclosure).
            logger.debug("request answered", metadata: ["requestID": "\(context.requestID)", "path": "\(request.uri.path)"])
            return response
        } catch let error as HTTPError where error.status == .notFound {
            failure = routeError(request)
        } catch {
            failure = ServerError.answering(error)
        }
        logger.log(level: failure.code == .internalError ? .error : .debug, "request failed",
                   metadata: ["requestID": "\(context.requestID)", "path": "\(request.uri.path)", "code": "\(failure.code.rawValue)", "reason": "\(failure.reason)"])
        return try failure.response(from: request, context: context)
    }

    /// The error for a request no route took: a wrong method, or an unknown path.
    private func routeError(_ request: Request) -> ServerError {
        let methods = routes.methods(forPath: request.uri.path)
        if methods.isEmpty {
            return ServerError(.notFound, "no route \(request.method.rawValue) \(request.uri.path.prefix(200)) (see openapi.yaml)")
        }
        let allowed = methods.map(\.rawValue).joined(separator: ", ")
        return ServerError(.badRequest, "\(request.uri.path.prefix(200)) answers \(allowed), not \(request.method.rawValue)",
                           status: .methodNotAllowed, headers: [.allow: allowed])
    }
}
#endif
