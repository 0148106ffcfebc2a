// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The requests of a route (or of all routes) over a ``TelemetryWindow``'s hour: totals, error
/// rates and percentiles over the hour, and the same minute by minute, oldest first.
///
/// As JSON (``json``): `requests`, `clientErrors` (4xx), `serverErrors` (5xx), `errorRate`
/// (the share of 5xx, from 0 to 1), `clientErrorRate` (the share of 4xx), `p50` and `p99` (in
/// milliseconds, null without requests), and `series`, arrays of one value a minute:
/// `requests`, `clientErrors`, `serverErrors`, `p50`, `p99` (null in a minute without requests).
///
/// ```swift
/// let summary = TelemetrySummary(route: "records/query", minutes: minutes)   // 60 minutes, oldest first
/// summary.json["p99"]   // .number(12.0)
/// ```
struct TelemetrySummary: Sendable, Equatable {
    /// The route pattern, or nil for all routes.
    let route: String?
    /// Each minute of the window, oldest first (nil: no request in it).
    let minutes: [TelemetryMinute?]
    /// The window's minutes summed.
    let hour: TelemetryMinute

    /// The summary of `minutes`, each of the window's minutes in order.
    init(route: String?, minutes: [TelemetryMinute?]) {
        self.route = route
        self.minutes = minutes
        var hour = TelemetryMinute(minute: minutes.lazy.compactMap { $0?.minute }.first ?? 0)
        for minute in minutes { if let minute { hour.add(minute) } }
        self.hour = hour
    }

    /// The answer's JSON object.
    var json: JSONValue {
        var members: [String: JSONValue] = [
            "requests": .integer(Int64(hour.requests)),
            "clientErrors": .integer(Int64(hour.clientErrors)),
            "serverErrors": .integer(Int64(hour.serverErrors)),
            "errorRate": .number(Self.rate(hour.serverErrors, of: hour.requests)),
            "clientErrorRate": .number(Self.rate(hour.clientErrors, of: hour.requests)),
            "p50": Self.milliseconds(hour.latency.percentile(50)),
            "p99": Self.milliseconds(hour.latency.percentile(99)),
            "series": .object([
                "requests": .array(minutes.map { .integer(Int64($0?.requests ?? 0)) }),
                "clientErrors": .array(minutes.map { .integer(Int64($0?.clientErrors ?? 0)) }),
                "serverErrors": .array(minutes.map { .integer(Int64($0?.serverErrors ?? 0)) }),
                "p50": .array(minutes.map { Self.milliseconds($0?.latency.percentile(50)) }),
                "p99": .array(minutes.map { Self.milliseconds($0?.latency.percentile(99)) }),
            ]),
        ]
        if let route { members["route"] = .string(route) }
        return .object(members)
    }

    /// `part` out of `whole`, from 0 to 1 (0 of nothing).
    static func rate(_ part: Int, of whole: Int) -> Double {
        whole == 0 ? 0 : Double(part) / Double(whole)
    }

    private static func milliseconds(_ value: Double?) -> JSONValue {
        value.map(JSONValue.number) ?? .null
    }
}
#endif
