// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
@_spi(StorageEngine) import RecordStoreCore
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreSQL

/// Runs `body` in a task of its own and returns what it returns, unless a watchdog gives up
/// first: every `interval`, `giveUp(waited)` says whether to stop waiting (an error to throw)
/// or to keep waiting (nil), given how long the call has waited so far.
///
/// Unlike a task group, giving up does not wait for `body`: the call returns at once even when
/// `body` is stuck where cancellation cannot reach it (a connection to a server that stopped
/// answering, or one the server closed under a query), and `body` is cancelled in the
/// background. Cancelling the caller cancels `body` and returns at once with `CancellationError`.
///
/// ```swift
/// let connection = try await withWatchdog(every: .seconds(1), executor: nil) { waited in
///     waited < .seconds(10) ? nil : RecordStoreError.serverUnavailable(server: "db:5432", reason: "no answer within 10 seconds")
/// } body: {
///     try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
/// }
/// ```
func withWatchdog<T: Sendable>(
    every interval: Duration,
    executor: (any TaskExecutor)?,
    giveUp: @escaping @Sendable (_ waited: Duration) -> (any Error)?,
    body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = WatchdogRace<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            guard race.start(continuation) else { return }
            let work = Task(executorPreference: executor) {
                do {
                    race.finish(.success(try await body()))
                } catch {
                    race.finish(.failure(error))
                }
            }
            let watchdog = Task(executorPreference: executor) {
                let clock = ContinuousClock()
                let started = clock.now
                while true {
                    do { try await Task.sleep(for: interval) } catch { return }
                    if let error = giveUp(started.duration(to: clock.now)) {
                        race.finish(.failure(error))
                        return
                    }
                }
            }
            race.track(work: work, watchdog: watchdog)
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// The state ``withWatchdog(every:executor:giveUp:body:)`` shares between the caller, the work
/// and the watchdog: the first to finish resumes the caller, and whatever is left is cancelled.
private final class WatchdogRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var work: Task<Void, Never>?
        var watchdog: Task<Void, Never>?
        var isFinished = false
    }

    private let state = LockedState(State())

    /// Keeps the caller's continuation; false (and the caller resumed) when the race already
    /// ended, which happens when the caller was cancelled before it started.
    func start(_ continuation: CheckedContinuation<T, any Error>) -> Bool {
        let finished = state.withLock { state in
            if !state.isFinished { state.continuation = continuation }
            return state.isFinished
        }
        if finished { continuation.resume(throwing: CancellationError()) }
        return !finished
    }

    /// Keeps the tasks to cancel when the race ends; cancels them at once when it has ended.
    func track(work: Task<Void, Never>, watchdog: Task<Void, Never>) {
        let finished = state.withLock { state in
            state.work = work
            state.watchdog = watchdog
            return state.isFinished
        }
        if finished {
            work.cancel()
            watchdog.cancel()
        }
    }

    /// Ends the race with a result (only the first call counts) and cancels what still runs.
    func finish(_ result: Result<T, any Error>) {
        let ended = state.withLock { state -> State? in
            guard !state.isFinished else { return nil }
            let ended = state
            state.isFinished = true
            state.continuation = nil
            return ended
        }
        guard let ended else { return }
        ended.continuation?.resume(with: result)
        ended.work?.cancel()
        ended.watchdog?.cancel()
    }
}
#endif
