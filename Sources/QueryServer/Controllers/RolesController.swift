// Part of the Server trait: without it, this module is empty.
#if Server

/// The security role routes of the public database, for its administrator
/// (``RouteAccess/administer``: a key with full access, the administrator token, or anyone on a
/// server without credentials):
///
/// | route | answers |
/// |---|---|
/// | `GET`, `POST roles/list` | `roles`: each declared role, in order, with its users (`userRecordName`, `emailAddress`) |
/// | `POST roles/assign` | gives `role` to the user (`userRecordName` or `emailAddress`): the role's new entry |
/// | `POST roles/remove` | takes `role` from the user: the role's new entry |
///
/// ```swift
/// RolesController(service: service).addRoutes(to: routes)
/// // curl -H 'Authorization: Bearer TOKEN' http://127.0.0.1:8080/database/1/iCloud.example/production/public/roles/list
/// ```
struct RolesController: RouteController {
    let service: CloudKitService

    func addRoutes(to routes: ServerRoutes) {
        let service = self.service
        routes.database("roles/list", [.get, .post], access: .administer) { _, context in
            JSONResponse.make(try await service.listRoles(in: try context.requireNamespace(answeringShared: true)))
        }
        routes.database("roles/assign", [.post], access: .administer) { _, context in
            JSONResponse.make(try await service.assignRole(try context.json(), in: try context.requireNamespace(answeringShared: true)))
        }
        routes.database("roles/remove", [.post], access: .administer) { _, context in
            JSONResponse.make(try await service.removeRole(try context.json(), in: try context.requireNamespace(answeringShared: true)))
        }
    }
}
#endif
