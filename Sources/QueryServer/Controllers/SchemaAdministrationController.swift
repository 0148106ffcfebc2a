// Part of the Server trait: without it, this module is empty.
#if Server

/// The schema administration routes, in the development environment, for its administrator
/// (``RouteAccess/administer``, as the security roles' routes). Each answers a ``SchemaPlan``
/// (`schema/reset` a ``DevelopmentReset``), and with `"dryRun": true` only computes it:
///
/// | route | changes |
/// |---|---|
/// | `POST schema/fields/add` | development's record type gains a field (`type`, `indexes`), or a field gains index types |
/// | `POST schema/indexes/remove` | a field of development's record type loses index types |
/// | `POST schema/deploy` | production gains what development's schema has that it lacks; a field whose type would change is refused |
/// | `POST schema/reset` | development's zones and records go, and its schema becomes production's (answers a ``DevelopmentReset``) |
///
/// ```swift
/// SchemaAdministrationController(service: service).addRoutes(to: routes)
/// // curl -d '{"dryRun": true}' http://127.0.0.1:8080/database/1/iCloud.example/development/public/schema/deploy
/// ```
struct SchemaAdministrationController: RouteController {
    let service: CloudKitService

    func addRoutes(to routes: ServerRoutes) {
        let service = self.service
        routes.database("schema/fields/add", [.post], access: .administer) { _, context in
            JSONResponse.make(try await service.addSchemaField(try context.json(), in: try context.requireNamespace()))
        }
        routes.database("schema/indexes/remove", [.post], access: .administer) { _, context in
            JSONResponse.make(try await service.removeSchemaIndexes(try context.json(), in: try context.requireNamespace()))
        }
        routes.database("schema/deploy", [.post], access: .administer) { _, context in
            JSONResponse.make(try await service.deploySchema(try context.json(), in: try context.requireNamespace()))
        }
        routes.database("schema/reset", [.post], access: .administer) { _, context in
            JSONResponse.make(try await service.resetDevelopment(try context.json(), in: try context.requireNamespace()))
        }
    }
}
#endif
