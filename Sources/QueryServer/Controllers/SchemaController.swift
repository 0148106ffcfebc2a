// Part of the Server trait: without it, this module is empty.
#if Server

/// This server's schema routes of a database: `schema` (JSON, or `.ckdb` text with
/// `?format=ckdb` or `Accept: text/plain`) and `predicates/check` (a predicate checked against
/// the schema and the rules, with the position of a syntax error).
///
/// ```swift
/// SchemaController(service: service).addRoutes(to: routes)
/// ```
struct SchemaController: RouteController {
    let service: CloudKitService

    func addRoutes(to routes: ServerRoutes) {
        let service = self.service
        routes.database("schema", [.get, .post], access: .read) { request, context in
            let namespace = try context.requireNamespace(answeringShared: true)
            switch try SchemaAnswerFormat(request) {
            case .json: return JSONResponse.make(try await service.schema(in: namespace))
            case .ckdb: return SchemaAnswerFormat.ckdbResponse(try await service.schemaDocument(in: namespace))
            }
        }
        routes.database("predicates/check", [.post], access: .read) { _, context in
            JSONResponse.make(try await service.checkPredicate(try context.json(), in: try context.requireNamespace(answeringShared: true)))
        }
    }
}
#endif
