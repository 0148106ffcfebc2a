import CoreMetrics
import PredicateLanguage

/// Where a store keeps its ``StoreMetrics``: given by ``Store/recordMetrics(_:)``, or made from
/// the bootstrapped factory the first time the store records. Shared by the store and the
/// query path (`RelationshipWalkingQueries`), which measure their operations through it.
///
/// ```swift
/// let slot = StoreMetricsSlot(engine: "sqlite")
/// let records = try await slot.measure(.query) { try await engine.records(specification) }
/// ```
package final class StoreMetricsSlot: Sendable {
    private let engine: String
    private let metrics = LockedState<StoreMetrics?>(nil)

    /// An empty slot for a store of `engine`.
    package init(engine: String) {
        self.engine = engine
    }

    /// The metrics recorded to: those given, or the bootstrapped factory's from the first call on.
    package var current: StoreMetrics {
        metrics.withLock { metrics in
            if let metrics { return metrics }
            let made = StoreMetrics(factory: MetricsSystem.factory, dimensions: [], engine: engine)
            metrics = made
            return made
        }
    }

    /// Records to `metrics` (with the store's engine among their dimensions) from now on.
    package func set(_ metrics: StoreMetrics) {
        let bound = metrics.forEngine(engine)
        self.metrics.withLock { $0 = bound }
    }

    /// Runs `body` and records its duration, and its failure, as `operation`. While it runs, the
    /// metrics are the task's ``StoreMetrics/current``, where an engine records its own (a
    /// connection pool's).
    package func measure<T, Failure: Error>(
        _ operation: StoreMetrics.Operation, _ body: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        let metrics = current
        let started = ContinuousClock.now
        let outcome: Result<T, Failure> = await StoreMetrics.$current.withValue(metrics) {
            do throws(Failure) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        if case .failure = outcome {
            metrics.record(operation, since: started, failed: true)
        } else {
            metrics.record(operation, since: started, failed: false)
        }
        return try outcome.get()
    }
}
