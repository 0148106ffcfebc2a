// Part of the Server trait: without it, this module is empty.
#if Server

/// The change history of a database, what changed since a sync token (CloudKit's sync):
/// `records/changes`, `changes/zone`, `changes/database` and `zones/changes`.
///
/// ```swift
/// ChangesController(service: service, configuration: configuration).addRoutes(to: routes)
/// ```
struct ChangesController: RouteController {
    let service: CloudKitService
    let configuration: ServerConfiguration

    func addRoutes(to routes: ServerRoutes) {
        let service = self.service
        let configuration = self.configuration
        routes.database("records/changes", [.post], access: .read) { request, context in
            let links = service.assetLinks(origin: ClientOrigin.of(request, configuration: configuration))
            return RecordsController.answer(try await service.recordChanges(try context.json(), in: try context.requireNamespace(answeringShared: true), links: links), context: context)
        }
        routes.database("changes/zone", [.post], access: .read) { request, context in
            let links = service.assetLinks(origin: ClientOrigin.of(request, configuration: configuration))
            return RecordsController.answer(try await service.zoneChanges(try context.json(), in: try context.requireNamespace(answeringShared: true), links: links), context: context)
        }
        routes.database("changes/database", [.post], access: .read) { _, context in
            JSONResponse.make(try await service.databaseChanges(try context.json(), in: try context.requireNamespace(answeringShared: true)))
        }
        routes.database("zones/changes", [.post], access: .read) { _, context in
            JSONResponse.make(try await service.zonesChanges(try context.json(), in: try context.requireNamespace()))
        }
    }
}
#endif
