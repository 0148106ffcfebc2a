import CoreMetrics
import PredicateLanguage

/// The metrics a ``Store`` records through swift-metrics: the duration of each operation
/// (queries, counts, aggregates, lookups, saves, history pruning), the rows its queries read
/// against the rows they return and the residual predicate's share of them, the records saved
/// and deleted, the conflicts of saves, the live queries open, and the change history's
/// tombstones, kept and pruned. Every metric carries the
/// store's engine (`engine`) and the dimensions given here.
///
/// A store records to the factory `MetricsSystem.bootstrap` installed when the store first
/// records (bootstrap before opening stores), unless it is given metrics of its own
/// (``Store/recordMetrics(_:)``): a server, or a test, hands it a factory explicitly. The
/// article <doc:Metrics> lists the metrics.
///
/// ```swift
/// import CoreMetrics
///
/// MetricsSystem.bootstrap(myBackend)     // once per process, before opening stores
/// let store = try Store.open(path: "cities.sqlite")
/// // or, without bootstrapping:
/// store.recordMetrics(StoreMetrics(factory: myBackend, dimensions: [("environment", "production")]))
/// ```
public final class StoreMetrics: Sendable {
    /// A store operation whose duration and errors are recorded.
    public enum Operation: String, Sendable, CaseIterable {
        /// A query for records (`records(ofType:…)`, fetch requests, query operations, live queries' reads).
        case query
        /// A count of the records a query selects.
        case count
        /// An aggregate (grouped fetch request).
        case aggregate
        /// Records read by their identifiers.
        case lookup
        /// A write: saves and deletions of one transaction.
        case save
        /// Pruning the change history of old tombstones.
        case historyPrune = "history_prune"
        /// A read of the change history: a page of a zone's or the database's changes, or a
        /// zone's current change token.
        case history
        /// A backup's read of the store (``Store/backup(to:)``).
        case backup
    }

    /// The metric names, each prefixed by `query_store_`.
    enum Name {
        static let duration = "query_store_operation_duration_seconds"
        static let errors = "query_store_operation_errors_total"
        static let rowsRead = "query_store_rows_read_total"
        static let rowsReturned = "query_store_rows_returned_total"
        static let residualTested = "query_store_residual_rows_tested_total"
        static let residualRejected = "query_store_residual_rows_rejected_total"
        static let recordsSaved = "query_store_records_saved_total"
        static let recordsDeleted = "query_store_records_deleted_total"
        static let conflicts = "query_store_conflicts_total"
        static let liveQueries = "query_store_live_queries"
        static let tombstonesKept = "query_store_history_tombstones"
        static let tombstonesPruned = "query_store_history_tombstones_pruned_total"
        static let poolWait = "query_store_pool_wait_seconds"
        static let poolInUse = "query_store_pool_connections_in_use"
        static let poolTimeouts = "query_store_pool_wait_timeouts_total"
        static let replicaReads = "query_store_replica_reads_total"
    }

    /// Where a read of a store with read replicas ran (the `route` of
    /// `query_store_replica_reads_total`): on a replica, or on the primary and why.
    @_spi(StorageEngine) public enum ReadRoute: String, Sendable, CaseIterable {
        /// A replica that had replayed everything the primary had written when the read began.
        case replica
        /// The primary: the replica had not replayed that far within the replay wait.
        case primaryReplicaBehind = "primary_replica_behind"
        /// The primary: the replica failed or did not answer (down, restarting, promoted).
        case primaryReplicaUnavailable = "primary_replica_unavailable"
    }

    /// The metrics of an engine's connection pool (PostgreSQL's): how long each lease waited for
    /// a connection, the connections leased now, and the waits that gave up. Made on first use,
    /// so that a store without a pool shows none.
    @_spi(StorageEngine) public struct PoolMetrics: Sendable {
        /// The wait for each connection leased.
        @_spi(StorageEngine) public let wait: Timer
        /// The connections leased now.
        @_spi(StorageEngine) public let inUse: Meter
        /// The waits that ended without a connection (the connect timeout).
        @_spi(StorageEngine) public let timeouts: Counter
    }

    /// The metrics of the store whose operation the current task runs (set by the store while
    /// it asks its engine), for the engine's own metrics.
    @TaskLocal @_spi(StorageEngine) public static var current: StoreMetrics?

    private let durations: [Operation: Timer]
    private let errors: [Operation: Counter]
    private let rowsRead: Counter
    private let rowsReturned: Counter
    private let residualTested: Counter
    private let residualRejected: Counter
    private let recordsSaved: Counter
    private let recordsDeleted: Counter
    private let conflicts: Counter
    private let liveQueries: Meter
    private let tombstonesKept: Gauge
    private let tombstonesPruned: Counter
    private let base: [(String, String)]
    private let poolMetrics = LockedState<PoolMetrics?>(nil)
    private let replicaReads = LockedState<[ReadRoute: Counter]>([:])
    /// The factory the metrics were made with.
    public let factory: any MetricsFactory
    /// The dimensions every metric of the store carries besides `engine`.
    public let dimensions: [(String, String)]

    /// Metrics made by `factory` (the bootstrapped one unless given), each with `dimensions`
    /// besides the store's `engine`.
    ///
    /// ```swift
    /// let metrics = StoreMetrics(factory: registryFactory, dimensions: [("environment", "production")])
    /// ```
    public convenience init(factory: any MetricsFactory = MetricsSystem.factory, dimensions: [(String, String)] = []) {
        self.init(factory: factory, dimensions: dimensions, engine: nil)
    }

    /// The same metrics with the store's engine among their dimensions.
    package init(factory: any MetricsFactory, dimensions: [(String, String)], engine: String?) {
        self.factory = factory
        self.dimensions = dimensions
        let base: [(String, String)] = (engine.map { [("engine", $0)] } ?? []) + dimensions.filter { $0.0 != "engine" || engine == nil }
        func counter(_ label: String, _ extra: [(String, String)] = []) -> Counter {
            Counter(label: label, dimensions: base + extra, factory: factory)
        }
        var durations: [Operation: Timer] = [:]
        var errors: [Operation: Counter] = [:]
        for operation in Operation.allCases {
            durations[operation] = Timer(label: Name.duration, dimensions: base + [("operation", operation.rawValue)], factory: factory)
            errors[operation] = counter(Name.errors, [("operation", operation.rawValue)])
        }
        self.durations = durations
        self.errors = errors
        rowsRead = counter(Name.rowsRead)
        rowsReturned = counter(Name.rowsReturned)
        residualTested = counter(Name.residualTested)
        residualRejected = counter(Name.residualRejected)
        recordsSaved = counter(Name.recordsSaved)
        recordsDeleted = counter(Name.recordsDeleted)
        conflicts = counter(Name.conflicts)
        liveQueries = Meter(label: Name.liveQueries, dimensions: base, factory: factory)
        tombstonesKept = Gauge(label: Name.tombstonesKept, dimensions: base, factory: factory)
        tombstonesPruned = counter(Name.tombstonesPruned)
        self.base = base
    }

    /// The connection pool's metrics, made on first use.
    @_spi(StorageEngine) public var pool: PoolMetrics {
        poolMetrics.withLock { pool in
            if let pool { return pool }
            let made = PoolMetrics(
                wait: Timer(label: Name.poolWait, dimensions: base, factory: factory),
                inUse: Meter(label: Name.poolInUse, dimensions: base, factory: factory),
                timeouts: Counter(label: Name.poolTimeouts, dimensions: base, factory: factory))
            pool = made
            return made
        }
    }

    /// Counts a read of a store with read replicas by where it ran. The counters are made on
    /// first use, so that a store without replicas shows none.
    @_spi(StorageEngine) public func recordRead(_ route: ReadRoute) {
        let counter = replicaReads.withLock { counters in
            if let counter = counters[route] { return counter }
            let made = Counter(label: Name.replicaReads, dimensions: base + [("route", route.rawValue)], factory: factory)
            counters[route] = made
            return made
        }
        counter.increment()
    }

    /// The same metrics for a store of `engine` (the dimensions of these, and `engine`).
    package func forEngine(_ engine: String) -> StoreMetrics {
        StoreMetrics(factory: factory, dimensions: dimensions, engine: engine)
    }

    /// Records an operation that started at `start`, and whether it failed.
    package func record(_ operation: Operation, since start: ContinuousClock.Instant, failed: Bool) {
        durations[operation]?.recordElapsed(since: start)
        if failed { errors[operation]?.increment() }
    }

    /// Records what a query read and returned.
    package func recordQuery(_ tally: QueryTally, returned: Int) {
        rowsRead.increment(by: tally.rowsRead)
        rowsReturned.increment(by: returned)
        residualTested.increment(by: tally.residualTested)
        residualRejected.increment(by: tally.residualRejected)
    }

    /// Records a write's saved and deleted records.
    package func recordWrite(saved: Int, deleted: Int) {
        recordsSaved.increment(by: saved)
        recordsDeleted.increment(by: deleted)
    }

    /// Records a save refused for a changed record (`serverRecordChanged`).
    package func recordConflict() {
        conflicts.increment()
    }

    /// Records a pruning of the change history: the tombstones it dropped, and those kept now.
    package func recordPruning(dropped: Int, kept: Int) {
        tombstonesPruned.increment(by: dropped)
        tombstonesKept.record(kept)
    }

    /// A live query started (`started: true`) or ended.
    package func recordLiveQuery(started: Bool) {
        if started { liveQueries.increment() } else { liveQueries.decrement() }
    }
}
