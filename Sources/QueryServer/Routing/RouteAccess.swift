// Part of the Server trait: without it, this module is empty.
#if Server

/// What a database route does with the caller's database, declared where the route is added
/// (``ServerRoutes/database(_:_:access:handler:)``) and enforced by ``AuthenticationMiddleware``.
///
/// Access belongs to the route, not to the spelling of the path a request arrives by: a request
/// reaches a writing route's handler only through the middleware that route was declared with.
///
/// ```swift
/// routes.database("records/modify", [.post], access: .write) { request, context in ... }
/// routes.database("roles/assign", [.post], access: .administer) { request, context in ... }
/// ```
enum RouteAccess: String, Sendable, Equatable, CaseIterable {
    /// Reads records, zones, subscriptions, the schema or the caller's identity.
    case read
    /// Creates, changes or deletes records, zones, subscriptions or assets: never an API token's.
    case write
    /// Administers the server's store (assigns security roles): only a server-to-server key with
    /// full access (not held to roles, ``ServerConfiguration/keysHeldToSecurityRoles``), the caller
    /// presenting the administrator token (``ServerConfiguration/administratorToken``, sent as
    /// `Authorization: Bearer TOKEN`), or anyone on a server without credentials (loopback only).
    /// Everyone else, an API token or a signed-in user included, is `ACCESS_DENIED`.
    case administer
}
#endif
