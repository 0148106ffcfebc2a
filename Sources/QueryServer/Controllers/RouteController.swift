// Part of the Server trait: without it, this module is empty.
#if Server

/// A group of the server's routes about one resource (records, zones, changes, subscriptions,
/// assets, users, the schema, the console, health), added to the router as Hummingbird's
/// controllers add theirs: each route declares its path, methods and access
/// (``ServerRoutes/database(_:_:access:handler:)``), and its handler calls the
/// ``CloudKitService``.
///
/// ```swift
/// struct HealthController: RouteController {
///     func addRoutes(to routes: ServerRoutes) {
///         routes.plain("health", .get) { _, _ in JSONResponse.make(.object(["status": "ok"]), status: .ok) }
///     }
/// }
/// ```
protocol RouteController: Sendable {
    /// Adds this controller's routes to the router and its route table.
    func addRoutes(to routes: ServerRoutes)
}
#endif
