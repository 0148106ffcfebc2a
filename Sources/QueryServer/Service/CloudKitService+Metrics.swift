// Part of the Server trait: without it, this module is empty.
#if Server
import CoreMetrics
import RecordStore

extension CloudKitService {
    /// Records the metrics of every environment's store (`StoreMetrics`) to `factory`, with the
    /// environment (`production`, `development`) among their dimensions.
    ///
    /// ```swift
    /// service.recordStoreMetrics(factory: PrometheusMetricsFactory(registry: registry))
    /// ```
    func recordStoreMetrics(factory: any MetricsFactory) {
        let production = StoreMetrics(factory: factory, dimensions: [("environment", "production")])
        store.recordMetrics(production)
        productionStore.recordMetrics(production)
        developmentStore.recordMetrics(StoreMetrics(factory: factory, dimensions: [("environment", "development")]))
    }
}
#endif
