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
            let namespace = try context.requireNamespace(answeringShared: true)
            if namespace.sharedDatabaseUser != nil { return JSONResponse.make(try await service.listSharedZones(in: namespace)) }
            return JSONResponse.make(try await service.listZones(in: namespace))
        }
        routes.database("zones/lookup", [.post], access: .read) { _, context in
            let namespace = try context.requireNamespace(answeringShared: true)
            if namespace.sharedDatabaseUser != nil { return JSONResponse.make(try await service.lookupSharedZones(try context.json(), in: namespace)) }
            return JSONResponse.make(try await service.lookupZones(try context.json(), in: namespace))
        }
        routes.database("zones/modify", [.post], access: .write) { _, context in
            JSONResponse.make(try await service.modifyZones(try context.json(), in: try context.requireNamespace()))
        }
    }
}
#endif
