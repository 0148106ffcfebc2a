// Part of the Server trait: without it, this module is empty.
#if Server
import Hummingbird
import Logging

/// Writes one log line per request, once its answer is made: `request` at info level, with the
/// request's ID (the `uuid` of a CloudKit error answer), method, route (the endpoint path of
/// Hummingbird's router, as its `TracingMiddleware` reads it), environment, database,
/// caller, status, duration in milliseconds and the records of the answer
/// (``RequestLogEntry``). It never logs a query string (where `ckAPIToken` travels), a header,
/// a body or a record's values. The outermost middleware, so that it sees every answer,
/// refusals included; on when ``ServerConfiguration/logsRequests`` is.
///
/// ```swift
/// router.add(middleware: RequestLogMiddleware(logger: logger))
/// // info request [requestID: 3f2a…, method: POST, route: records/query, status: 200, durationMilliseconds: 2.41, ...]
/// ```
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        var status = 500
        defer {
            let elapsed = ContinuousClock.now - started
            let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            let fields = context.requestLog.current
            var metadata: Logger.Metadata = [
                "requestID": "\(context.requestID)", "method": "\(request.method.rawValue)",
                "route": "\(Self.route(context.endpointPath))", "status": "\(status)",
                "durationMilliseconds": "\((milliseconds * 100).rounded() / 100)",
            ]
            if let caller = fields.caller { metadata["caller"] = "\(caller)" }
            if let environment = fields.environment { metadata["environment"] = "\(environment)" }
            if let database = fields.database { metadata["database"] = "\(database)" }
            if let records = fields.records { metadata["records"] = "\(records)" }
            logger.info("request", metadata: metadata)
        }
        let response = try await next(request, context)
        status = response.status.code
        return response
    }

    /// The route Hummingbird's router matched (its endpoint path), after the database prefix:
    /// `records/query`, `/assets/download/{token}`; `none` when no route matched.
    static func route(_ endpointPath: String?) -> String {
        guard let endpointPath, endpointPath != "NotFound" else { return "none" }
        let prefix = "/database/1/{container}/{environment}/{database}/"
        return endpointPath.hasPrefix(prefix) ? String(endpointPath.dropFirst(prefix.count)) : endpointPath
    }
}
#endif
