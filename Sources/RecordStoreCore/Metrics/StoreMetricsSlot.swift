import CoreMetrics
import PredicateLanguage
import Tracing

/// Where a store keeps its ``StoreMetrics``: given by ``Store/recordMetrics(_:)``, or made from
/// the bootstrapped factory the first time the store records; and its tracer (``StoreTracing``):
/// given by ``Store/traceOperations(with:)``, or the bootstrapped one. Shared by the store and the
/// query path (`RelationshipWalkingQueries`), which measure their operations through it.
///
/// ```swift
/// let slot = StoreMetricsSlot(engine: "sqlite")
/// let records = try await slot.measure(.query) { try await engine.records(specification) }
/// ```
package final class StoreMetricsSlot: Sendable {
    private let engine: String
    private let metrics = LockedState<StoreMetrics?>(nil)
    private let tracer = LockedState<(any Tracer)?>(nil)

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

    /// Traces to `tracer` from now on (nil: to the bootstrapped tracer again).
    package func set(_ tracer: (any Tracer)?) {
        self.tracer.withLock { $0 = tracer }
    }

    /// The tracer of this store's operations: the one given, else the bootstrapped one, else none.
    private var currentTracer: (any Tracer)? {
        if let given = tracer.withLock({ $0 }) { return given }
        let bootstrapped = InstrumentationSystem.tracer
        return bootstrapped is NoOpTracer ? nil : bootstrapped
    }

    /// Runs `body` and records its duration, and its failure, as `operation`, inside a span of
    /// its own when the store traces (``StoreTracing``). While it runs, the metrics are the task's
    /// ``StoreMetrics/current``, where an engine records its own (a connection pool's).
    package func measure<T, Failure: Error>(
        _ operation: StoreMetrics.Operation, _ body: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        let metrics = current
        let started = ContinuousClock.now
        let tracer = currentTracer
        let outcome: Result<T, Failure> = await StoreMetrics.$current.withValue(metrics) {
            do throws(Failure) {
                guard let tracer else { return .success(try await body()) }
                return .success(try await StoreTracing.operation(operation.rawValue, engine: engine, tracer: tracer, body))
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
