// Part of the Server trait: without it, this module is empty.
#if Server

/// The zone routes of a database: `zones/list`, `zones/lookup` and `zones/modify`.
///
/// ```swift
/// ZonesController(service: service).addRoutes(to: routes)
/// ```
struct ZonesController: RouteController {
    let service: CloudKitService

    func addRoutes(to routes: ServerRoutes) {
        let service = self.service
        routes.database("zones/list", [.get, .post], access: .read) { _, context in
            JSONResponse.make(try await service.listZones(in: try context.requireNamespace()))
        }
        routes.database("zones/lookup", [.post], access: .read) { _, context in
            JSONResponse.make(try await service.lookupZones(try context.json(), in: try context.requireNamespace()))
        }
        routes.database("zones/modify", [.post], access: .write) { _, context in
            JSONResponse.make(try await service.modifyZones(try context.json(), in: try context.requireNamespace()))
        }
    }
}
#endif
