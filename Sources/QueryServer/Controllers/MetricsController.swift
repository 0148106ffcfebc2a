// Part of the Server trait: without it, this module is empty.
#if Server
import HTTPTypes
import Hummingbird
import NIOCore
import Prometheus

/// `GET /metrics`: the server's and its stores' metrics in Prometheus' text format, from the
/// server's registry. On the main port only with a bearer token
/// (``MetricsConfiguration/bearerToken``); the metrics port (``MetricsConfiguration/port``)
/// answers it without one, on a router of its own (``metricsRouter(registry:)``).
///
/// ```swift
/// MetricsController(registry: registry, bearerToken: "s3cr3t").addRoutes(to: routes)
/// // curl -H 'Authorization: Bearer s3cr3t' http://127.0.0.1:8080/metrics
/// ```
struct MetricsController: RouteController {
    let registry: PrometheusCollectorRegistry
    let bearerToken: String

    /// The path of the metrics.
    static let path = "metrics"

    func addRoutes(to routes: ServerRoutes) {
        let registry = self.registry
        let expected = Array("Bearer \(bearerToken)".utf8)
        routes.plain(Self.path, .get) { request, _ in
            let given = Array((request.headers[.authorization] ?? "").utf8)
            guard RequestAuthenticator.constantTimeEqual(given, expected) else {
                throw ServerError(.authenticationFailed, "GET /metrics needs the metrics bearer token (Authorization: Bearer TOKEN)")
            }
            return Self.exposition(registry)
        }
    }

    /// The router of the metrics port: `GET /metrics`, nothing else.
    static func metricsRouter(registry: PrometheusCollectorRegistry) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.get(RouterPath(path)) { _, _ in exposition(registry) }
        return router
    }

    /// The registry's metrics as Prometheus' text format (version 0.0.4).
    static func exposition(_ registry: PrometheusCollectorRegistry) -> Response {
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
#endif
