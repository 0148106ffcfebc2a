import CoreMetrics

extension Timer {
    /// Records the time elapsed since `start`, in whole nanoseconds.
    ///
    /// ```swift
    /// let started = ContinuousClock.now
    /// try await work()
    /// timer.recordElapsed(since: started)
    /// ```
    package func recordElapsed(since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        recordNanoseconds(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
    }
}
