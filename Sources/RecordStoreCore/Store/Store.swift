import Foundation
import PredicateLanguage

/// An open record store: records in zones, a schema, and queries in the predicate language.
///
/// ```swift
/// let store = try Store.open(path: "cities.sqlite")          // SQLite, development mode
/// var paris = Record(recordType: "City", recordID: RecordID(recordName: "2988507"))
/// paris["name"] = "Paris"
/// paris["population"] = 2_138_551
/// _ = try store.save([paris])
/// let big = try store.records(
///     ofType: "City",
///     matching: FormatPredicate(format: "population > %d", 1_000_000),
///     sorts: [Sort("population", ascending: false)])
/// ```
///
/// Every operation has an `async` form that never blocks a cooperative thread on I/O (call it
/// with `await` from `async` code, as a server does), and, on the embedded engines (SQLite,
/// memory), a synchronous form that blocks the calling thread while the engine works. The
/// synchronous form runs the `async` one on the calling thread (`SynchronousCall`): each
/// operation is written once. A store is safe to share between threads and tasks; with SQLite,
/// readers run while a write is in progress.
public final class Store: Sendable {
    /// The engine behind the store.
    @_spi(StorageEngine) public let engine: any StorageEngine
    /// How queries (records, counts, aggregates, plans) run on ``engine``: key paths through
    /// relationships that the engine does not plan itself are walked by the store.
    package let queryEngine: RelationshipWalkingQueries
    /// Development (the schema grows with the data) or production (fixed schema, indexes required).
    public let mode: SchemaMode
    /// How far saves may grow the schema (``SchemaLimits/unlimited`` unless given).
    public let schemaLimits: SchemaLimits
    /// How long the change history keeps tombstones, and when it was last pruned.
    package let historyUpkeep = LockedState(HistoryUpkeep())
    /// The metrics the store records (``recordMetrics(_:)``), shared with ``queryEngine``.
    package let metricsSlot: StoreMetricsSlot
    /// Values decoded from stored records, by record and the change tag decoded: a record read on
    /// every request (the security policy, ``securityPolicy()``) is decoded again only when it changed.
    package let decodedRecords = LockedState<[RecordID: (changeTag: String, value: any Sendable)]>([:])

    /// A store over an engine; its saves grow the schema at most as far as `schemaLimits` allows.
    @_spi(StorageEngine) public init(engine: any StorageEngine, mode: SchemaMode = .development, schemaLimits: SchemaLimits = .unlimited) {
        self.engine = engine
        metricsSlot = StoreMetricsSlot(engine: engine.name)
        // Queries that walk relationships are answered the same way on every engine.
        queryEngine = RelationshipWalkingQueries(base: engine, metrics: metricsSlot)
        self.mode = mode
        self.schemaLimits = schemaLimits
    }

    /// Runs one write on the engine, in the store's mode and within its schema limits: the one
    /// way every save and deletion reaches ``StorageEngine/modify(_:mode:)``. A change set that
    /// saves and deletes nothing changes nothing: it opens no transaction (on a server engine,
    /// three round trips) and counts as no write.
    package func write(_ changes: RecordChangeSet) async throws(RecordStoreError) -> [Record] {
        guard !changes.saving.isEmpty || !changes.deleting.isEmpty else { return [] }
        var changes = changes
        changes.schemaLimits = schemaLimits
        let metrics = metricsSlot.current
        do {
            let saved = try await metricsSlot.measure(.save) { () async throws(RecordStoreError) in try await engine.modify(changes, mode: mode) }
            metrics.recordWrite(saved: changes.saving.count, deleted: changes.deleting.count)
            return saved
        } catch {
            if case .conflict = error { metrics.recordConflict() }
            throw error
        }
    }

    /// The engine's name: `memory`, `sqlite`, or `postgres`.
    public var engineName: String { engine.name }

    /// Whether the synchronous methods work: true for the embedded engines (memory, SQLite).
    ///
    /// ```swift
    /// Store.inMemory().answersSynchronously   // true
    /// ```
    public var answersSynchronously: Bool { engine.answersSynchronously }

    /// The synchronous form of an operation: runs its `async` form on the calling thread and
    /// waits for it (`SynchronousCall`), or, for an engine that does not answer synchronously
    /// (a database server), throws the error that says to call the `async` form.
    ///
    /// ```swift
    /// public func zones() throws(RecordStoreError) -> [ZoneID] {
    ///     try synchronously { try await self.zones() }
    /// }
    /// ```
    package func synchronously<T>(_ operation: () async throws -> T) throws(RecordStoreError) -> T {
        guard engine.answersSynchronously else { throw .synchronousAccessUnavailable(engine: engine.name) }
        do {
            return try SynchronousCall.wait(operation)
        } catch {
            // The `async` forms throw only store errors.
            throw RecordStoreError(thrownBy: error)
        }
    }

    /// The specification of a query given by its parts, checked for its shape (record type name,
    /// predicate depth); the engine checks it against the schema when it runs.
    package func specification(
        _ recordType: String, _ predicate: FormatPredicate, _ sorts: [Sort], _ zone: ZoneID, _ limit: Int?
    ) throws(RecordStoreError) -> QuerySpecification {
        try QueryValidation.checkShape(recordType: recordType, predicate: predicate)
        return checkedSpecification(recordType, predicate, sorts, zone, limit)
    }

    /// The specification of a query whose shape is already checked (a ``RecordQuery``'s).
    package func checkedSpecification(
        _ recordType: String, _ predicate: FormatPredicate, _ sorts: [Sort], _ zone: ZoneID, _ limit: Int?
    ) -> QuerySpecification {
        QuerySpecification(recordType: recordType, predicate: predicate, sorts: sorts, zone: zone, limit: limit, mode: mode)
    }
}
