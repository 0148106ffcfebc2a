import Tracing

/// Traces: the spans the store makes through swift-distributed-tracing (``StoreTracing``).
extension Store {
    /// Traces this store's operations to `tracer` from now on, instead of the tracer
    /// `InstrumentationSystem.bootstrap` installed; nil goes back to that one. Each operation is a
    /// span (`store.query`, `store.save`, …) whose children are the engine's SQL statements.
    ///
    /// ```swift
    /// import InMemoryTracing
    ///
    /// let tracer = InMemoryTracer()
    /// store.traceOperations(with: tracer)
    /// ```
    public func traceOperations(with tracer: (any Tracer)?) {
        metricsSlot.set(tracer)
    }
}
