// Part of the Server trait: without it, this module is empty.
#if Server

/// `GET /health`: the liveness check, answered while the process serves (also at the connection
/// cap, through its reserve of connections).
///
/// ```swift
/// HealthController().addRoutes(to: routes)   // GET /health → {"status": "ok"}
/// ```
struct HealthController: RouteController {
    func addRoutes(to routes: ServerRoutes) {
        routes.plain("health", .get) { _, _ in
            JSONResponse.make(.object(["status": .string("ok")]), status: .ok)
        }
    }
}
#endif
