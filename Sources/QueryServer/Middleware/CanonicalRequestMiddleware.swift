// Part of the Server trait: without it, this module is empty.
#if Server
import HTTPTypes
import Hummingbird

/// Refuses a request whose target could be read two ways, before any route or credential looks
/// at it:
/// - a path not spelt canonically: an empty component (`//`, a trailing `/`), a `.` or `..`
///   component, or any `%`, `;` or `\` (percent-encoding, matrix parameters). Every route then
///   has one spelling, the one its signature covers and its declared access
///   (``RouteAccess``) belongs to;
/// - a request with more than one `Host` header (the first became the request's authority; a
///   second would let a proxy and this server disagree on whom the request is for).
///
/// Both are `BAD_REQUEST` (400) naming what was wrong.
///
/// ```swift
/// router.add(middleware: CanonicalRequestMiddleware())
/// CanonicalRequestMiddleware.problem(inPath: "/database/1/c/production/public/records/modify/")
/// // "a trailing '/'"
/// ```
struct CanonicalRequestMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    static let hostHeader = HTTPField.Name("Host")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let problem = Self.problem(inPath: request.uri.path) {
            throw ServerError(.badRequest, "the path '\(request.uri.path.prefix(200))' is not canonical: it has \(problem)")
        }
        if !request.headers[values: Self.hostHeader].isEmpty {
            throw ServerError(.badRequest, "the request has more than one Host header")
        }
        return try await next(request, context)
    }

    /// What keeps a path from being canonical, or nil when it is.
    static func problem(inPath path: String) -> String? {
        guard path.hasPrefix("/") else { return "no leading '/'" }
        if path == "/" { return nil }
        for character in path.utf8 {
            switch character {
            case UInt8(ascii: "%"): return "a '%' (percent-encoding)"
            case UInt8(ascii: ";"): return "a ';' (a path parameter)"
            case UInt8(ascii: "\\"): return "a '\\'"
            default: continue
            }
        }
        if path.hasSuffix("/") { return "a trailing '/'" }
        for component in path.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            if component.isEmpty { return "an empty component ('//')" }
            if component.elementsEqual(".".utf8) || component.elementsEqual("..".utf8) { return "a '.' or '..' component" }
        }
        return nil
    }
}
#endif
