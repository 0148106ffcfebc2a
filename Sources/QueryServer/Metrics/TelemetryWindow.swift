// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The server's requests of the last hour by route, in memory, for the console's Telemetry tab
/// (`GET telemetry`, ``TelemetryController``): one ``TelemetryMinute`` per route and minute, in
/// a ring of 60 per route, each minute reused once it is an hour old.
///
/// Memory is bounded: a route is a pattern the router matched (`records/query`, `none` when
/// none did, as in ``ServerMetrics``), never the path a client sent, so there are as many
/// routes as the router declares, and each holds at most 60 minutes of 38 latency counters
/// (``LatencyHistogram``), however many requests it answers. Nothing survives a restart, and
/// each server process counts its own requests.
///
/// A request is filed under the minute it is answered in, by the window's clock
/// (``TelemetryClock``); its latency is the difference of two readings of that clock.
///
/// ```swift
/// let window = TelemetryWindow()
/// let started = window.clock.now()
/// window.record(route: "records/query", status: 200, started: started)
/// window.report().total.hour.requests   // 1
/// ```
final class TelemetryWindow: Sendable {
    /// The minutes of the window: an hour.
    static let minutes = 60

    /// Where the window reads the time.
    let clock: any TelemetryClock
    /// Each route's ring of minutes: the minute `m` in slot `m % 60`.
    private let rings = LockedState<[String: [TelemetryMinute?]]>([:])

    /// A window that reads the time from `clock`.
    init(clock: any TelemetryClock = SystemTelemetryClock()) {
        self.clock = clock
    }

    /// Counts a request of `route` answered now with `status`, which started at `started` (a
    /// reading of ``clock``).
    func record(route: String, status: Int, started: Duration) {
        let now = clock.now()
        record(route: route, status: status, latency: now - started, at: now)
    }

    /// Counts a request of `route` answered at `time` (since 1970) with `status` after `latency`.
    func record(route: String, status: Int, latency: Duration, at time: Duration) {
        let minute = Self.minute(of: time)
        let slot = Self.slot(of: minute)
        let microseconds = Self.microseconds(latency)
        rings.withLock { rings in
            // Changed in place: no copy of the ring or of its latency counters under the lock.
            Self.file(status: status, microseconds: microseconds, minute: minute,
                      in: &rings[route, default: [TelemetryMinute?](repeating: nil, count: Self.minutes)][slot])
        }
    }

    /// Counts a request in a ring's slot: in its minute, the slot's earlier minute replaced.
    private static func file(status: Int, microseconds: Int64, minute: Int64, in held: inout TelemetryMinute?) {
        // A request answered as the minute turned may be filed after the next minute's: one
        // older than the slot's minute is dropped rather than erase the newer minute.
        if let heldMinute = held?.minute, heldMinute > minute { return }
        if held?.minute != minute { held = TelemetryMinute(minute: minute) }
        held?.record(status: status, microseconds: microseconds)
    }

    /// The last hour as it stands now: each route with requests in it, and all of them summed.
    /// Routes whose every minute is older than the hour are forgotten.
    func report(recording: Bool = true) -> TelemetryReport {
        let current = Self.minute(of: clock.now())
        let first = current - Int64(Self.minutes - 1)
        let windows: [String: [TelemetryMinute?]] = rings.withLock { rings in
            var windows: [String: [TelemetryMinute?]] = [:]
            for (route, ring) in rings {
                let minutes = (first...current).map { minute in ring[Self.slot(of: minute)].flatMap { $0.minute == minute ? $0 : nil } }
                if minutes.contains(where: { $0 != nil }) { windows[route] = minutes } else { rings[route] = nil }
            }
            return windows
        }
        let routes = windows.map { TelemetrySummary(route: $0.key, minutes: $0.value) }
            .sorted { ($0.hour.requests, $1.route ?? "") > ($1.hour.requests, $0.route ?? "") }
        let total = (0..<Self.minutes).map { index -> TelemetryMinute? in
            var sum: TelemetryMinute?
            for minutes in windows.values {
                guard let minute = minutes[index] else { continue }
                if sum == nil { sum = TelemetryMinute(minute: minute.minute) }
                sum?.add(minute)
            }
            return sum
        }
        return TelemetryReport(recording: recording, firstMinute: first, total: TelemetrySummary(route: nil, minutes: total), routes: routes)
    }

    /// The minute of a time since 1970.
    static func minute(of time: Duration) -> Int64 {
        let seconds = time.components.seconds
        return seconds >= 0 ? seconds / 60 : (seconds - 59) / 60
    }

    /// The slot of a minute in a ring.
    static func slot(of minute: Int64) -> Int {
        Int(((minute % Int64(minutes)) + Int64(minutes)) % Int64(minutes))
    }

    /// A latency in whole microseconds (a negative one as zero).
    static func microseconds(_ latency: Duration) -> Int64 {
        let (seconds, attoseconds) = latency.components
        guard seconds >= 0 else { return 0 }
        return seconds.multipliedReportingOverflow(by: 1_000_000).partialValue + attoseconds / 1_000_000_000_000
    }
}
#endif
