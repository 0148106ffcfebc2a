// Part of the Server trait: without it, this module is empty.
#if Server

/// `GET telemetry`: the server's requests of the last hour by route (``TelemetryWindow``), for
/// the console's Telemetry tab, for its administrator (``RouteAccess/administer``: a key with
/// full access, the administrator token, or anyone on a server without credentials). The
/// answer is the server's whatever the database the path names (``TelemetryReport``): each
/// route's requests, 4xx and 5xx apart, the share of 5xx (`errorRate`), p50 and p99 latency in
/// milliseconds, and the same minute by minute.
///
/// ```swift
/// TelemetryController(window: metrics.telemetry, recording: true).addRoutes(to: routes)
/// // curl -H 'Authorization: Bearer TOKEN' http://127.0.0.1:8080/database/1/iCloud.example/production/public/telemetry
/// ```
struct TelemetryController: RouteController {
    let window: TelemetryWindow
    /// Whether the server records metrics (``MetricsConfiguration/isRecording``): without them
    /// the window stays empty and the answer says so.
    let recording: Bool

    func addRoutes(to routes: ServerRoutes) {
        let window = self.window
        let recording = self.recording
        routes.database("telemetry", [.get], access: .administer) { _, _ in
            JSONResponse.make(window.report(recording: recording).json)
        }
    }
}
#endif
