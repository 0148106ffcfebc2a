// Part of the Server trait: without it, this module is empty.
#if Server
import HTTPTypes
import Hummingbird

/// Lets the pages of the origins the operator allows (``ServerConfiguration/allowedOrigins``,
/// `query serve --allowed-origin`) call the server from the browser: CORS.
///
/// - A preflight (`OPTIONS` with `Access-Control-Request-Method`) from an allowed origin is
///   answered here, 204, with the methods and the CloudKit headers a request may send.
/// - Every answer to an allowed origin, errors included, carries
///   `Access-Control-Allow-Origin` (that origin), `Vary: Origin`, and
///   `Access-Control-Expose-Headers` naming the rotated `X-Apple-CloudKit-Web-Auth-Token` and
///   `Retry-After`, so that the page's script can read them.
/// - Any other origin gets no CORS header: the browser keeps the answer from its page. (A server
///   without credentials refuses such requests outright, `LocalAccessMiddleware`.)
///
/// No cookie is ever involved (`Access-Control-Allow-Credentials` is never sent): callers prove
/// who they are with tokens and signatures in each request.
///
/// ```swift
/// router.add(middleware: CrossOriginMiddleware(allowedOrigins: ["https://notes.example"]))
/// ```
struct CrossOriginMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    /// The server's caller access, whose allowed origins (`scheme://host[:port]`, lowercased,
    /// without a trailing `/`) are read for each request: a reload holds at once.
    let current: CurrentCallerAccess

    init(current: CurrentCallerAccess) {
        self.current = current
    }

    init(allowedOrigins: [String]) {
        self.init(current: CurrentCallerAccess(CallerAccess(allowedOrigins: allowedOrigins), privateUsers: [:]))
    }

    /// The request headers a cross-origin page may send.
    static let allowedHeaders = [
        "Content-Type", "X-Apple-CloudKit-Request-KeyID", "X-Apple-CloudKit-Request-ISO8601Date",
        "X-Apple-CloudKit-Request-SignatureV1", "X-Apple-CloudKit-Web-Auth-Token", "Last-Event-ID",
    ].joined(separator: ", ")
    /// The answer headers a cross-origin page may read.
    static let exposedHeaders = "X-Apple-CloudKit-Web-Auth-Token, Retry-After"
    /// Seconds a browser may keep a preflight's answer.
    static let preflightLifetime = "600"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin], current.snapshot.normalizedOrigins.contains(Self.normalized(origin)) else {
            return try await next(request, context)
        }
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            var response = Response(status: .noContent)
            response.headers[.accessControlAllowMethods] = "GET, POST"
            response.headers[.accessControlAllowHeaders] = Self.allowedHeaders
            response.headers[.accessControlMaxAge] = Self.preflightLifetime
            allow(origin, in: &response)
            return response
        }
        var response = try await next(request, context)
        allow(origin, in: &response)
        response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
        return response
    }

    /// Marks an answer as readable by the origin's pages.
    private func allow(_ origin: String, in response: inout Response) {
        response.headers[.accessControlAllowOrigin] = origin
        response.headers.append(HTTPField(name: .vary, value: "Origin"))
    }

    /// An origin as compared: lowercased, without a trailing `/`.
    static func normalized(_ origin: String) -> String {
        let lowered = origin.lowercased()
        return lowered.hasSuffix("/") ? String(lowered.dropLast()) : lowered
    }
}
#endif
