import PredicateLanguage
@testable import QueryServer

/// A ``TelemetryClock`` a test moves itself: it reads `time`, then moves on by `step` at each
/// reading, so that a request timed between two readings took exactly `step` (requests sent
/// one after another) and minutes turn only when the test says so.
final class ManualTelemetryClock: TelemetryClock {
    private let state: LockedState<(time: Duration, step: Duration)>

    /// A clock at `time` since 1970 that moves `step` at each reading.
    init(_ time: Duration, step: Duration = .zero) {
        state = LockedState((time, step))
    }

    /// A clock at the start of `minute` (counted from 1970).
    convenience init(minute: Int64, step: Duration = .zero) {
        self.init(.seconds(minute * 60), step: step)
    }

    func now() -> Duration {
        state.withLock { state in
            defer { state.time += state.step }
            return state.time
        }
    }

    /// Puts the clock at `seconds` into `minute`, moving `step` at each reading from now on.
    func set(minute: Int64, seconds: Int64 = 0, step: Duration = .zero) {
        state.withLock { $0 = (.seconds(minute * 60 + seconds), step) }
    }
}
