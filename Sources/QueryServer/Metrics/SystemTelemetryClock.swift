// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation

/// The server's ``TelemetryClock``: the wall clock read once, when it is made, then moved on by
/// the monotonic clock (`ContinuousClock`). A request's latency is never negative, and a change of
/// the system's time (NTP, a daylight-saving mistake) neither empties nor refills the window.
///
/// ```swift
/// let window = TelemetryWindow(clock: SystemTelemetryClock())
/// ```
struct SystemTelemetryClock: TelemetryClock {
    private let wallClockAtStart: Duration
    private let started: ContinuousClock.Instant

    /// A clock that starts at the system's time.
    init() {
        wallClockAtStart = .seconds(Date().timeIntervalSince1970)
        started = ContinuousClock.now
    }

    func now() -> Duration {
        wallClockAtStart + (ContinuousClock.now - started)
    }
}
#endif
