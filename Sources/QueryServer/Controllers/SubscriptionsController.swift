// Part of the Server trait: without it, this module is empty.
#if Server
import HTTPTypes

/// The subscription routes of a database: `subscriptions/list`, `subscriptions/lookup`,
/// `subscriptions/modify`, and this server's extension `subscriptions/events`, the
/// namespace's notifications as Server-Sent Events (``NotificationStream``), a stream a caller
/// holds among at most ``ServerConfiguration/maximumStreamsPerCaller``.
///
/// ```swift
/// SubscriptionsController(service: service, configuration: configuration, metrics: metrics).addRoutes(to: routes)
/// ```
struct SubscriptionsController: RouteController {
    let service: CloudKitService
    let configuration: ServerConfiguration
    /// Counts the event streams open and the notifications they send.
    let metrics: ServerMetrics

    /// The header a client resumes an event stream with (or the `lastEventID` query parameter).
    static let lastEventIDHeader = HTTPField.Name("Last-Event-ID")!

    func addRoutes(to routes: ServerRoutes) {
        let (service, metrics) = (self.service, self.metrics)
        routes.database("subscriptions/list", [.get, .post], access: .read) { _, context in
            JSONResponse.make(try await service.listSubscriptions(in: try context.requireNamespace(answeringShared: true)))
        }
        routes.database("subscriptions/modify", [.post], access: .write) { _, context in
            JSONResponse.make(try await service.modifySubscriptions(try context.json(), in: try context.requireNamespace(answeringShared: true)))
        }
        routes.database("subscriptions/lookup", [.post], access: .read) { _, context in
            JSONResponse.make(try await service.lookupSubscriptions(try context.json(), in: try context.requireNamespace(answeringShared: true)))
        }
        let streams = StreamSlots(cap: configuration.maximumStreamsPerCaller)
        routes.database("subscriptions/events", [.get], access: .read) { request, context in
            let slot = try context.requestLog.refuse(.streamCap) { () throws(ServerError) in
                try streams.take(for: StreamSlots.caller(of: context), connectionClosed: context.connectionClosed)
            }
            let lastEventID = request.headers[Self.lastEventIDHeader] ?? request.uri.queryParameters.get("lastEventID").map { String($0) }
            let events = try await service.notifications(in: try context.requireNamespace(answeringShared: true), after: lastEventID, principal: context.principal)
            return NotificationStream.response(events, container: context.parameters.get("container") ?? "", slot: slot, metrics: metrics)
        }
    }
}
#endif
