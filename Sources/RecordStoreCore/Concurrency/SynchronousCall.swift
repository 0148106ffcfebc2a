import Foundation

/// Runs `async` work for a synchronous caller, on the caller's own thread: how every synchronous
/// method of ``Store`` (and of the builder above it) reaches the one `async` implementation of
/// its operation, instead of a hand-written blocking twin.
///
/// The work becomes a task whose jobs run on a private executor that the calling thread drains
/// until the task ends, the way a run loop would: no cooperative thread is borrowed, so a
/// synchronous call cannot starve the concurrency pool, and a synchronous call made from inside
/// another one (a store used inside a GRDB transaction) works the same way. While it waits,
/// ``isWaiting`` is true for the work, so an embedded engine may do its blocking I/O directly
/// on this thread rather than hopping to a queue and back.
///
/// It is the inverse of `BlockingWork`, which runs blocking work for an `async` caller.
///
/// ```swift
/// let count = try SynchronousCall.wait { try await store.count(ofType: "City", matching: .truePredicate) }
/// ```
///
/// The work must not need the main actor when the caller is the main thread (the main thread is
/// busy waiting); nothing in the store does.
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `BlockingWork`.
@_spi(StorageEngine) public enum SynchronousCall {
    /// Whether the current task is work a synchronous caller waits for on its own thread.
    @_spi(StorageEngine) @TaskLocal public static var isWaiting = false

    /// Runs `work` to its end on the calling thread and returns its result or throws its error.
    ///
    /// `work` need not be `Sendable`, nor what it captures: every job of it runs on this thread
    /// while this call waits, and the call returns only once it has ended.
    @_spi(StorageEngine) public static func wait<T, Failure: Error>(_ work: () async throws(Failure) -> T) throws(Failure) -> T {
        try withoutActuallyEscaping(work) { (escapable) throws(Failure) -> T in
            let callersWork = CallerValue(escapable)
            let executor = CallerThreadExecutor()
            let outcome = OutcomeBox<T, Failure>()
            // A detached task inherits no task-local value: the caller's trace is carried by hand,
            // so that the work's spans are children of the caller's.
            let tracing = StoreTracing.capture()
            Task.detached(executorPreference: executor) {
                await $isWaiting.withValue(true) {
                    do throws(Failure) {
                        outcome.result = .success(try await tracing.restore { () async throws(Failure) -> T in try await callersWork.value() })
                    } catch {
                        outcome.result = .failure(error)
                    }
                }
                executor.stop()
            }
            executor.runUntilStopped()
            // The task stored its outcome before stopping the executor.
            guard let result = outcome.result else { preconditionFailure("SynchronousCall: the task ended without an outcome") }
            return try result.get()
        }
    }
}

extension SynchronousCall {
    /// A value of the synchronous caller's (a progress callback, say) handed to the work it waits
    /// for. Every job of that work runs on the caller's thread while it waits, so the value is
    /// never used from two threads at once, Sendable or not.
    ///
    /// ```swift
    /// let callback = SynchronousCall.CallerValue(progress)
    /// try await importFile(at: path, into: store, progress: { callback.value($0) })   // a @Sendable closure
    /// ```
    @_spi(StorageEngine) public struct CallerValue<Value>: @unchecked Sendable {
        /// The caller's value.
        @_spi(StorageEngine) public let value: Value

        /// Wraps a value of the synchronous caller's.
        @_spi(StorageEngine) public init(_ value: Value) {
            self.value = value
        }
    }
}

/// Where the waited-for task leaves its outcome: written once by the task, read by the caller
/// after the executor stopped, on the same thread.
private final class OutcomeBox<T, Failure: Error>: @unchecked Sendable {
    @_spi(StorageEngine) public var result: Result<T, Failure>?
}

/// A task executor whose jobs the thread that calls ``runUntilStopped()`` runs, one after another.
///
/// Tasks the waited-for work starts without awaiting them (a connection pool's run loop, say)
/// inherit the executor and may outlive the wait: once stopped, the executor hands their jobs to
/// Dispatch's global queue instead.
private final class CallerThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    @_spi(StorageEngine) public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        guard !stopped else {
            condition.unlock()
            DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
            return
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Ends ``runUntilStopped()`` once the jobs already enqueued have run.
    @_spi(StorageEngine) public func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    /// Runs the enqueued jobs on this thread, waiting for more, until ``stop()``.
    @_spi(StorageEngine) public func runUntilStopped() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            guard !jobs.isEmpty else {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
