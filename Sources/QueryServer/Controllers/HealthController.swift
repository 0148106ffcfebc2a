// Part of the Server trait: without it, this module is empty.
#if Server

/// The server's health:
/// - `GET /health`: the liveness check, answered while the process serves (also at the
///   connection cap, through its reserve of connections);
/// - `GET /health/ready`: the readiness check, `{"status": "ready"}` once every environment's store
///   answers a read, and CloudKit's `SERVICE_UNAVAILABLE` (503, with `retryAfter`) while the
///   store's database cannot be reached. (A store still migrating has not opened yet, and the
///   server does not listen before it opens.)
///
/// ```swift
/// HealthController(service: service).addRoutes(to: routes)   // GET /health → {"status": "ok"}
/// ```
struct HealthController: RouteController {
    let service: CloudKitService

    func addRoutes(to routes: ServerRoutes) {
        let service = self.service
        routes.plain("health", .get) { _, _ in
            JSONResponse.make(.object(["status": .string("ok")]), status: .ok)
        }
        routes.plain("health/ready", .get) { _, _ in
            _ = try await service.zonesOfEveryEnvironment()
            return JSONResponse.make(.object(["status": .string("ready")]), status: .ok)
        }
    }
}
#endif
