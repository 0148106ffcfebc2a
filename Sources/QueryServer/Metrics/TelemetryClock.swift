// Part of the Server trait: without it, this module is empty.
#if Server

/// Where a ``TelemetryWindow`` reads the time: the time since 1970, which never goes back. The
/// window files a request under the minute of this time, and times it by the difference of two
/// readings; a test gives a clock it moves itself.
///
/// ```swift
/// let clock: any TelemetryClock = SystemTelemetryClock()
/// let started = clock.now()
/// let latency = clock.now() - started   // never negative
/// ```
protocol TelemetryClock: Sendable {
    /// The time since 1970 (00:00 UTC, January 1st); never less than an earlier reading.
    func now() -> Duration
}
#endif
