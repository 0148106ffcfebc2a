// Part of the Server trait: without it, this module is empty.
#if Server
import HTTPTypes
import Hummingbird

/// Keeps web pages away from a server started without credentials. Such a server answers anyone
/// who can reach it, so it checks that the request was meant for it:
///
/// - its `Host` is a loopback name or address (`localhost`, `*.localhost`, `127.x.x.x`, `[::1]`)
///   or one of ``CloudKitServer/Configuration/allowedHosts``: a page on another site that
///   rebinds its own DNS name to 127.0.0.1 still sends its own name, and is refused;
/// - its `Origin`, when it has one, is the server's own (the scheme and the `Host` of the
///   request, as the console sends) or one of ``CloudKitServer/Configuration/allowedOrigins``:
///   a cross-site `fetch` or form POST, `text/plain` included, is refused before it reads or
///   writes anything. `Origin: null` (a sandboxed or opaque origin) is refused too.
///
/// Refusals are `ACCESS_DENIED` (403). A server with credentials checks neither: its callers
/// prove who they are.
///
/// ```swift
/// router.add(middleware: LocalAccessMiddleware(allowedHosts: ["devbox.local"], allowedOrigins: [], scheme: "http"))
/// ```
struct LocalAccessMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    /// Host names (without port) allowed besides loopback, lowercased.
    let allowedHosts: Set<String>
    /// Origins (`scheme://host[:port]`) allowed besides the server's own, lowercased.
    let allowedOrigins: Set<String>
    /// `http` or `https`: the scheme of the server's own origin.
    let scheme: String

    init(allowedHosts: [String], allowedOrigins: [String], scheme: String) {
        self.allowedHosts = Set(allowedHosts.map { $0.lowercased() })
        self.allowedOrigins = Set(allowedOrigins.map(CrossOriginMiddleware.normalized))
        self.scheme = scheme
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let authority = (request.head.authority ?? "").lowercased()
        guard isAllowed(host: Self.hostName(authority)) else {
            throw ServerError(.accessDenied, "this server has no credentials and answers only requests to a loopback name or address or an --allowed-host, not to '\(authority.prefix(100))'")
        }
        if let origin = request.headers[.origin]?.lowercased() {
            guard origin == "\(scheme)://\(authority)" || allowedOrigins.contains(CrossOriginMiddleware.normalized(origin)) else {
                throw ServerError(.accessDenied, "this server has no credentials and answers no page from another origin ('\(origin.prefix(100))'); allow it with --allowed-origin")
            }
        }
        return try await next(request, context)
    }

    /// Whether requests to this host name (without port) are answered.
    func isAllowed(host: String) -> Bool {
        Self.isLoopback(host) || allowedHosts.contains(host)
    }

    /// The host name of an authority (`localhost:8080`, `[::1]:8080`), without its port.
    static func hostName(_ authority: String) -> String {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[...close])
        }
        return String(authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// Whether a host name is loopback: `localhost`, a `.localhost` name, `127.0.0.0/8` or `[::1]`.
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host.hasSuffix(".localhost") || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
#endif
