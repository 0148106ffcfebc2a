// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import PredicateLanguage

/// What a ``TelemetryWindow`` holds at one moment: the hour's minutes, all routes summed, and
/// each route that answered a request in the hour, the busiest first (then by route pattern).
///
/// As JSON (``json``), the answer of `GET telemetry` (``TelemetryController``): `recording`
/// (false when the server records no metrics: then nothing is counted), `windowMinutes` (60),
/// `firstMinute` (the oldest minute's start, ISO 8601 in UTC; the series' first value is that
/// minute's, the last the current minute's), `total` and `routes` (``TelemetrySummary``).
///
/// ```swift
/// let report = window.report()
/// report.routes.map(\.route)   // ["records/query", "/health"]
/// JSONResponse.make(report.json)
/// ```
struct TelemetryReport: Sendable, Equatable {
    /// Whether requests are counted at all (``MetricsConfiguration/isRecording``).
    let recording: Bool
    /// The oldest minute of the window, counted from 1970.
    let firstMinute: Int64
    /// All routes summed.
    let total: TelemetrySummary
    /// Each route with requests in the window, the busiest first.
    let routes: [TelemetrySummary]

    /// The answer's JSON object.
    var json: JSONValue {
        .object([
            "recording": .bool(recording),
            "windowMinutes": .integer(Int64(total.minutes.count)),
            "firstMinute": .string(Self.timestamp(minute: firstMinute)),
            "total": total.json,
            "routes": .array(routes.map(\.json)),
        ])
    }

    /// The start of a minute counted from 1970, as ISO 8601 in UTC (`2026-11-26T21:04:00Z`).
    static func timestamp(minute: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(minute * 60)))
    }
}
#endif
