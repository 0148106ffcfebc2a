// Part of the Server trait: without it, this module is empty.
#if Server
import HTTPTypes
import Hummingbird

/// Adds the server's routes to its router and to its ``RouteTable`` at once, each database route
/// with the access it declares.
///
/// The database routes (`/database/1/{container}/{environment}/{database}/...`) go through one of
/// two groups of the router, whose ``AuthenticationMiddleware`` knows the access of every route
/// in it: a writing route is reachable only through the middleware that refuses writes to an API
/// token. Which handler a request reaches, and so which access it is checked for, is decided by
/// the router, never by how the path is spelt (``CanonicalRequestMiddleware`` refuses the other
/// spellings before any of this).
///
/// ```swift
/// let routes = ServerRoutes(router: router, table: table) { access in
///     AuthenticationMiddleware(configuration: configuration, privateUsers: [:], access: access, limiters: limiters)
/// }
/// routes.database("records/modify", [.post], access: .write) { request, context in ... }
/// routes.plain("health", .get) { _, _ in ... }
/// ```
struct ServerRoutes {
    /// A route's handler.
    typealias Handler = @Sendable (Request, ServerRequestContext) async throws -> Response

    /// The path every database route starts with.
    static let databasePrefix = "database/1/:container/:environment/:database"

    let router: Router<ServerRequestContext>
    let table: RouteTable
    private let groups: [RouteAccess: RouterGroup<ServerRequestContext>]

    /// Routes added to `router` and `table`; `authentication` makes the middleware of each access.
    init(router: Router<ServerRequestContext>, table: RouteTable, authentication: (RouteAccess) -> AuthenticationMiddleware) {
        self.router = router
        self.table = table
        var groups: [RouteAccess: RouterGroup<ServerRequestContext>] = [:]
        for access in RouteAccess.allCases {
            groups[access] = router.group(RouterPath(Self.databasePrefix)).add(middleware: authentication(access))
        }
        self.groups = groups
    }

    /// Adds a database route (`path` after the database prefix) for each of `methods`.
    func database(_ path: String, _ methods: [HTTPRequest.Method], access: RouteAccess, handler: @escaping Handler) {
        guard let group = groups[access] else { return }
        for method in methods {
            group.on(RouterPath(path), method: method, use: handler)
            table.add(Self.databasePrefix + "/" + path, method, access: access)
        }
    }

    /// Adds a route outside the databases (its handler checks whatever the route needs).
    func plain(_ path: String, _ method: HTTPRequest.Method, handler: @escaping Handler) {
        router.on(RouterPath(path), method: method, use: handler)
        table.add(path, method, access: nil)
    }
}
#endif
