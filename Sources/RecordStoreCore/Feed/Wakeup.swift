import PredicateLanguage

/// A signal a task waits for, with a time limit: a change source's loop sleeps on it between
/// looks, and a commit wakes it early.
///
/// ```swift
/// let wakeup = Wakeup()
/// await wakeup.wait(upTo: .milliseconds(50))   // returns early once `wakeup.signal()` is called
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `ChangeFeed`,
/// `ChangeSource` and `ObservationInbox`.
@_spi(StorageEngine) public final class Wakeup: Sendable {
    private struct State {
        var signalled = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = LockedState(State())

    /// A signal not yet given.
    @_spi(StorageEngine) public init() {}

    /// Wakes the waiter, or the next one to wait.
    @_spi(StorageEngine) public func signal() {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard let waiter = state.waiter else {
                state.signalled = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Waits until signalled, the time passes, or the task is cancelled.
    @_spi(StorageEngine) public func wait(upTo duration: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: duration) }
            group.addTask { await self.waitForSignal() }
            await group.next()
            group.cancelAll()
            // The signal wait ends on cancellation; resume it if it is still parked.
            self.releaseWaiter()
        }
    }

    private func waitForSignal() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow: Bool = state.withLock { state in
                    if state.signalled || Task.isCancelled {
                        state.signalled = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            releaseWaiter()
        }
    }

    private func releaseWaiter() {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}
