import CoreMetrics

/// Metrics: what the store records through swift-metrics (``StoreMetrics``).
extension Store {
    /// Records this store's metrics to `metrics` from now on, instead of the factory
    /// `MetricsSystem.bootstrap` installed. The store's engine is added to their dimensions.
    ///
    /// ```swift
    /// import CoreMetrics
    ///
    /// store.recordMetrics(StoreMetrics(factory: myFactory, dimensions: [("environment", "production")]))
    /// ```
    public func recordMetrics(_ metrics: StoreMetrics) {
        metricsSlot.set(metrics)
    }

    /// The metrics this store records to: those given to ``recordMetrics(_:)``, or those of the
    /// bootstrapped factory.
    ///
    /// ```swift
    /// let factory = store.metrics.factory
    /// ```
    public var metrics: StoreMetrics { metricsSlot.current }

    /// The stored records with these identifiers, read by the engine and measured as a lookup.
    package func lookup(_ ids: [RecordID]) async throws(RecordStoreError) -> [RecordID: Record] {
        try await metricsSlot.measure(.lookup) { () async throws(RecordStoreError) in try await engine.records(for: ids) }
    }
}
