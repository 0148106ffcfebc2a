// Part of the Server trait: without it, this module is empty.
#if Server

/// One route's requests in one minute of a ``TelemetryWindow``: how many, how many failed (4xx
/// and 5xx apart), and their latencies (``LatencyHistogram``).
///
/// ```swift
/// var minute = TelemetryMinute(minute: 29_000_000)
/// minute.record(status: 503, microseconds: 1_200)
/// minute.serverErrors   // 1
/// ```
struct TelemetryMinute: Sendable, Equatable {
    /// The minute, counted from 1970 (00:00 UTC, January 1st).
    let minute: Int64
    /// The requests answered in the minute.
    private(set) var requests = 0
    /// Those answered 400 to 499: the client's mistakes (a bad predicate, a refused credential).
    private(set) var clientErrors = 0
    /// Those answered 500 or more: the server's failures (a store that does not answer).
    private(set) var serverErrors = 0
    /// Their latencies.
    private(set) var latency = LatencyHistogram()

    /// A minute without requests yet.
    init(minute: Int64) {
        self.minute = minute
    }

    /// Counts a request by its answer's status and latency.
    mutating func record(status: Int, microseconds: Int64) {
        requests += 1
        if status >= 500 { serverErrors += 1 } else if status >= 400 { clientErrors += 1 }
        latency.record(microseconds: microseconds)
    }

    /// Counts another minute's requests too (to sum a route's minutes, or the routes' minute).
    mutating func add(_ other: TelemetryMinute) {
        requests += other.requests
        clientErrors += other.clientErrors
        serverErrors += other.serverErrors
        latency.add(other.latency)
    }
}
#endif
