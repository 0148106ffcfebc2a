import Foundation

/// A value shared between threads, guarded by a lock: the package's one lock type.
///
/// ```swift
/// let counter = LockedState(0)
/// counter.withLock { $0 += 1 }
/// ```
package final class LockedState<State>: @unchecked Sendable {
    private var state: State
    private let lock = NSLock()

    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
