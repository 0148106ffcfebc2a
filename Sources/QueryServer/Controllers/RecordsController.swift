// Part of the Server trait: without it, this module is empty.
#if Server
import Hummingbird
import PredicateLanguage

/// The record routes of a database: `records/query`, `records/lookup`, `records/modify`, and
/// this server's extensions `records/explain` (a query's plan, for the console and any client) and
/// `records/count` (how many records a query selects).
///
/// ```swift
/// RecordsController(service: service, configuration: configuration).addRoutes(to: routes)
/// ```
struct RecordsController: RouteController {
    let service: CloudKitService
    let configuration: ServerConfiguration

    func addRoutes(to routes: ServerRoutes) {
        let service = self.service
        let configuration = self.configuration
        routes.database("records/query", [.post], access: .read) { request, context in
            // Written straight into bytes: the one answer that carries up to 200 whole records.
            let links = service.assetLinks(origin: ClientOrigin.of(request, configuration: configuration))
            let namespace = try context.requireNamespace(answeringShared: true)
            let answer = namespace.sharedDatabaseUser != nil
                ? try await service.sharedQueryAnswer(try context.json(), in: namespace, links: links)
                : try await service.queryAnswer(try context.json(), in: namespace, principal: context.principal, links: links)
            context.requestLog.update { $0.records = answer.batch.records.count }
            return JSONResponse.make(bytes: answer.jsonBytes())
        }
        routes.database("records/explain", [.post], access: .read) { _, context in
            JSONResponse.make(try await service.explain(try context.json(), in: try context.requireNamespace(answeringShared: true), principal: context.principal))
        }
        routes.database("records/count", [.post], access: .read) { _, context in
            JSONResponse.make(try await service.count(try context.json(), in: try context.requireNamespace(), principal: context.principal))
        }
        routes.database("records/lookup", [.post], access: .read) { request, context in
            let links = service.assetLinks(origin: ClientOrigin.of(request, configuration: configuration))
            let namespace = try context.requireNamespace(answeringShared: true)
            let answer = namespace.sharedDatabaseUser != nil
                ? try await service.sharedLookup(try context.json(), in: namespace, links: links)
                : try await service.lookupAnswer(try context.json(), in: namespace, principal: context.principal, links: links)
            return Self.answer(answer, context: context)
        }
        routes.database("records/modify", [.post], access: .write) { request, context in
            let links = service.assetLinks(origin: ClientOrigin.of(request, configuration: configuration))
            let namespace = try context.requireNamespace(answeringShared: true)
            let principal = context.principal ?? .owner(of: namespace.database)
            let answer = namespace.sharedDatabaseUser != nil
                ? try await service.sharedModify(try context.json(), in: namespace, links: links)
                : try await service.modifyAnswer(try context.json(), in: namespace, principal: principal, links: links)
            return Self.answer(answer, context: context)
        }
    }

    /// A `{"records": [...]}` answer written straight into bytes, as a query's batch is; the
    /// request's log line gives its count of entries.
    static func answer(_ answer: RecordsAnswer, context: ServerRequestContext) -> Response {
        context.requestLog.update { $0.records = answer.entries.count }
        return JSONResponse.make(bytes: answer.jsonBytes())
    }

    /// A JSON answer with `records` (a zone's changes), whose count the request's log line gives.
    static func answer(_ answer: JSONValue, context: ServerRequestContext) -> Response {
        context.requestLog.update { $0.records = RequestLogEntry.recordCount(of: answer) }
        return JSONResponse.make(answer)
    }
}
#endif
