// Part of the Server trait: without it, this module is empty.
#if Server
import CoreMetrics

/// The server's metrics, made by one swift-metrics factory (a ``CloudKitServer``'s Prometheus
/// registry): requests by route, method and status, their latency by route and method, the bytes
/// of bodies read and written, open connections, refused requests by reason, event-stream
/// subscribers and the notifications sent to them, and asset bytes. `docs/Deployment.md` lists
/// them with the store's (`StoreMetrics`).
///
/// Labels come from a closed set, never from what a client sends: a route is the route
/// pattern the router matched (`records/query`, `none` when none did), a method one of the
/// usual ones or `other`.
///
/// ```swift
/// let metrics = ServerMetrics(factory: PrometheusMetricsFactory(registry: registry))
/// metrics.request(route: "records/query", method: "POST", status: 200).increment()
/// ```
final class ServerMetrics: Sendable {
    /// A route and a method.
    struct Endpoint: Hashable, Sendable {
        let route: String
        let method: String
    }

    /// A route, a method and a status.
    struct Outcome: Hashable, Sendable {
        let endpoint: Endpoint
        let status: Int
    }

    let factory: any MetricsFactory
    private let requests: MetricHandles<Outcome, Counter>
    private let durations: MetricHandles<Endpoint, Timer>
    private let bytesIn: MetricHandles<String, Counter>
    private let bytesOut: MetricHandles<String, Counter>
    private let refusals: [RefusalReason: Counter]
    /// The connections open on the main port.
    let openConnections: Meter
    /// The event streams (`subscriptions/events`) open.
    let subscribers: Meter
    /// The notifications written to event streams.
    let notificationsSent: Counter
    /// The bytes of assets uploaded (`assets/upload`) and stored.
    let assetBytesUploaded: Counter
    /// The bytes of assets sent by downloads.
    let assetBytesDownloaded: Counter
    /// The last hour's requests by route, in memory, for the console's Telemetry tab.
    let telemetry: TelemetryWindow

    /// Metrics made by `factory`; the telemetry window reads the time from `telemetryClock`.
    init(factory: any MetricsFactory, telemetryClock: any TelemetryClock = SystemTelemetryClock()) {
        self.factory = factory
        telemetry = TelemetryWindow(clock: telemetryClock)
        requests = MetricHandles { outcome in
            Counter(label: "query_http_requests_total", dimensions: [
                ("route", outcome.endpoint.route), ("method", outcome.endpoint.method), ("status", String(outcome.status)),
            ], factory: factory)
        }
        durations = MetricHandles { endpoint in
            Timer(label: "query_http_request_duration_seconds", dimensions: [("route", endpoint.route), ("method", endpoint.method)], factory: factory)
        }
        bytesIn = MetricHandles { route in Counter(label: "query_http_request_body_bytes_total", dimensions: [("route", route)], factory: factory) }
        bytesOut = MetricHandles { route in Counter(label: "query_http_response_body_bytes_total", dimensions: [("route", route)], factory: factory) }
        var refusals: [RefusalReason: Counter] = [:]
        for reason in RefusalReason.allCases {
            refusals[reason] = Counter(label: "query_http_refused_requests_total", dimensions: [("reason", reason.rawValue)], factory: factory)
        }
        self.refusals = refusals
        openConnections = Meter(label: "query_http_open_connections", factory: factory)
        subscribers = Meter(label: "query_notification_subscribers", factory: factory)
        notificationsSent = Counter(label: "query_notifications_sent_total", factory: factory)
        assetBytesUploaded = Counter(label: "query_asset_bytes_uploaded_total", factory: factory)
        assetBytesDownloaded = Counter(label: "query_asset_bytes_downloaded_total", factory: factory)
        // Present from the start at zero, so that a scrape shows them before the first event.
        openConnections.set(0)
        subscribers.set(0)
    }

    /// The methods counted by name; any other is `other`.
    static let methods: Set<String> = ["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH"]

    /// A method as a label.
    static func methodLabel(_ method: String) -> String {
        methods.contains(method) ? method : "other"
    }

    /// The counter of requests of a route, method and status.
    func request(route: String, method: String, status: Int) -> Counter {
        requests[Outcome(endpoint: Endpoint(route: route, method: method), status: status)]
    }

    /// The latency histogram of a route and method.
    func duration(route: String, method: String) -> Timer {
        durations[Endpoint(route: route, method: method)]
    }

    /// The counter of request body bytes read on a route.
    func requestBytes(route: String) -> Counter { bytesIn[route] }

    /// The counter of response body bytes written on a route.
    func responseBytes(route: String) -> Counter { bytesOut[route] }

    /// The counter of requests refused for a reason.
    func refused(_ reason: RefusalReason) -> Counter? { refusals[reason] }
}
#endif
