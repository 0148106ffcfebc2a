// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// Remembers that the database server could not be reached, so that while it is down each call
/// fails at once with ``RecordStoreError/serverUnavailable(server:reason:)`` instead of waiting
/// out the connect timeout, and finds by itself when the server is back.
///
/// After a call found no connection within the connect timeout, calls fail at once for
/// ``retryInterval``; then one call (the probe) tries the server again while the others keep
/// failing at once. The probe's success opens the gate for everyone; its failure closes it for
/// another interval. A call that had its connection and lost it (the server closed it) does not
/// close the gate: the pool reconnects at the next call.
///
/// ```swift
/// let reachability = PostgresReachability(server: "db:5432", retryInterval: .seconds(1))
/// if let refusal = reachability.refusal() { throw refusal }
/// ```
final class PostgresReachability: Sendable {
    private struct State {
        /// When the server was last found unreachable, and why.
        var failedAt: ContinuousClock.Instant
        var reason: String
        /// Whether a probe is under way.
        var probing = false
    }

    let server: String
    /// How long calls fail at once after the server was found unreachable.
    let retryInterval: Duration
    private let state = LockedState<State?>(nil)

    init(server: String, retryInterval: Duration) {
        self.server = server
        self.retryInterval = retryInterval
    }

    /// Whether the gate is closed now (for tests and readiness checks).
    var isUnreachable: Bool { state.withLock { $0 != nil } }

    /// The error a call fails with at once, or nil when it may try the server (it may be the probe).
    func refusal(now: ContinuousClock.Instant = .now) -> RecordStoreError? {
        state.withLock { state -> RecordStoreError? in
            guard var current = state else { return nil }
            if current.probing || now - current.failedAt < retryInterval {
                return .serverUnavailable(server: server, reason: "\(current.reason); failing at once until the server answers again")
            }
            current.probing = true
            state = current
            return nil
        }
    }

    /// A call reached the server: the gate opens.
    func reached() {
        state.withLock { $0 = nil }
    }

    /// A call found no connection: the gate closes for ``retryInterval``.
    func unreachable(reason: String, now: ContinuousClock.Instant = .now) {
        state.withLock { $0 = State(failedAt: now, reason: reason) }
    }
}
#endif
