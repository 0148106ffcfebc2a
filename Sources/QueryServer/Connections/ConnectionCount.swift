// Part of the Server trait: without it, this module is empty.
#if Server
import CoreMetrics
import Hummingbird
import HummingbirdCore
import RecordStore

/// The server's open connections, counted as they are accepted and closed, with a cap.
///
/// The server accepts up to ``cap`` plus ``reserve`` connections (beyond, the kernel's backlog
/// holds them). A request on a connection beyond ``cap`` is answered only when it is for
/// `/health` (others get `TRY_AGAIN_LATER`, ``ConnectionCapMiddleware``), so a monitor still
/// learns that the server lives while clients hold every ordinary connection; the timeouts of
/// ``RequestDeadlineHandler`` and the idle timeout free them.
///
/// ```swift
/// let count = ConnectionCount(cap: 1000, reserve: 16)
/// ServerConfiguration(address: address, availableConnectionsDelegate: count.delegate)
/// ```
final class ConnectionCount: Sendable {
    /// Connections served in full.
    let cap: Int
    /// Connections above ``cap`` accepted for `/health` only.
    let reserve: Int
    private let open = LockedState(0)
    /// The gauge of open connections (`query_http_open_connections`), if any.
    private let gauge: Meter?

    init(cap: Int, reserve: Int, gauge: Meter? = nil) {
        self.cap = cap
        self.reserve = reserve
        self.gauge = gauge
    }

    /// The connections open now.
    var current: Int { open.withLock { $0 } }

    /// Whether the server holds more connections than its cap.
    var isOverCap: Bool { current > cap }

    /// The delegate that counts connections for Hummingbird and stops accepting at the cap and its reserve.
    var delegate: Delegate { Delegate(count: self) }

    /// Hummingbird's view of the count.
    struct Delegate: AvailableConnectionsDelegate {
        let count: ConnectionCount
        mutating func connectionOpened() {
            count.open.withLock { $0 += 1 }
            count.gauge?.increment()
        }
        mutating func connectionClosed() {
            count.open.withLock { $0 -= 1 }
            count.gauge?.decrement()
        }
        func isAcceptingNewConnections() -> Bool { count.current < count.cap + count.reserve }
    }
}
#endif
