import Dispatch
import Foundation
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore

/// A store over the engine of `store` (in its mode, through a ``WaitingEngine``) that records
/// what it defines: `definedRecordTypes()` names the record types defined through it, in order.
///
/// ```swift
/// let (store, defined) = recordingDefinitions(of: Store.inMemory())
/// try store.define(RecordTypeSchema(name: "City"))
/// defined()   // ["City"]
/// ```
package func recordingDefinitions(of store: Store) -> (store: Store, definedRecordTypes: @Sendable () -> [String]) {
    let engine = WaitingEngine(store.engine)
    return (Store(engine: engine, mode: store.mode), { engine.definedRecordTypes })
}

/// A store over the engine of `store` (in its mode, through a ``WaitingEngine``) whose engine
/// calls are recorded, and so are those of the siblings it opens (a server's development store):
/// ``engineCalls(of:)`` reads them. What a caller asks of its engine (a `catalog()` read, a query)
/// shows there even when it makes no span.
///
/// ```swift
/// let store = recordingEngineCalls(of: try TestEngine.sqlite.makeStore())
/// _ = try await store.engine.catalog()
/// engineCalls(of: store, clearing: true)   // ["catalog"]
/// ```
package func recordingEngineCalls(of store: Store) -> Store {
    Store(engine: WaitingEngine(store.engine), mode: store.mode, schemaLimits: store.schemaLimits)
}

/// The engine calls a store made through ``recordingEngineCalls(of:)`` (or one of its siblings)
/// recorded, by method (`modify`, `catalog`, `records`, …), in order; then forgets them when
/// `clearing`. Empty for a store that does not record.
@discardableResult
package func engineCalls(of store: Store, clearing: Bool = false) -> [String] {
    guard let engine = store.engine as? WaitingEngine else { return [] }
    return engine.calls(clearing: clearing)
}

/// Test-only: an async engine (PostgreSQL) that lets `Store`'s synchronous methods wait for it,
/// so that the engine-parameterized suites, which are written against `Store`'s synchronous
/// methods, run on it unchanged.
///
/// It forwards every call to the engine and says it answers synchronously: `Store` then runs
/// its synchronous forms through `SynchronousCall`, as for SQLite, and the calling thread runs
/// the async work while it waits. This is a test harness only: PostgreSQL stores opened by
/// users answer only the `async` methods, which run on PostgreSQL in the async suites
/// (`AsyncFormsTests`, `StreamTests`, `PostgresEngineTests`).
///
/// It also keeps the names of the record types it is asked to define, in order, for tests that
/// check what a caller defines (over any engine).
final class WaitingEngine: StorageEngine {
    let base: any StorageEngine
    private let definitions = LockedState<[String]>([])
    private let recordedCalls = LockedState<[String]>([])

    init(_ base: any StorageEngine) {
        self.base = base
    }

    /// The record types ``define(_:templates:progress:)`` was called for, in order.
    var definedRecordTypes: [String] { definitions.withLock { $0 } }

    /// The engine methods called, in order (forgotten when `clearing`).
    func calls(clearing: Bool) -> [String] {
        recordedCalls.withLock { calls in
            defer { if clearing { calls.removeAll() } }
            return calls
        }
    }

    /// Records a call of a method (its name up to the parenthesis).
    private func note(_ function: String = #function) {
        let name = function.prefix { $0 != "(" }
        recordedCalls.withLock { $0.append(String(name)) }
    }

    var name: String { base.name }
    var secret: StoreSecret { base.secret }
    var changeFeed: ChangeFeed { base.changeFeed }
    var answersSynchronously: Bool { true }

    /// The threads the engine's connection pool runs on: never the cooperative pool, which the
    /// waiting test threads may all be blocking.
    static let executor = ThreadPoolTaskExecutor(threads: 4)

    func modify(_ changes: RecordChangeSet, mode: SchemaMode) async throws(RecordStoreError) -> [Record] {
        note()
        return try await base.modify(changes, mode: mode)
    }
    func records(for ids: [RecordID]) async throws(RecordStoreError) -> [RecordID: Record] {
        note()
        return try await base.records(for: ids)
    }
    func createZone(_ zone: ZoneID) async throws(RecordStoreError) {
        note()
        return try await base.createZone(zone)
    }
    func zones() async throws(RecordStoreError) -> [ZoneID] {
        note()
        return try await base.zones()
    }
    func deleteZone(_ zone: ZoneID) async throws(RecordStoreError) {
        note()
        return try await base.deleteZone(zone)
    }
    func catalog() async throws(RecordStoreError) -> SchemaCatalog {
        note()
        return try await base.catalog()
    }
    func define(_ recordTypes: [RecordTypeSchema], templates: [FetchRequestTemplate], progress: StoreOpeningProgressHandler?) async throws(RecordStoreError) {
        note()
        definitions.withLock { $0.append(contentsOf: recordTypes.map(\.name)) }
        return try await base.define(recordTypes, templates: templates, progress: progress)
    }
    func migrate(_ migration: SchemaMigration, progress: StoreOpeningProgressHandler?) async throws(RecordStoreError) {
        note()
        definitions.withLock { $0.append(contentsOf: migration.recordTypes.map(\.target.name)) }
        try await base.migrate(migration, progress: progress)
    }
    func records(_ query: QuerySpecification) async throws(RecordStoreError) -> [Record] {
        note()
        return try await base.records(query)
    }
    func count(_ query: QuerySpecification) async throws(RecordStoreError) -> Int {
        note()
        return try await base.count(query)
    }
    func aggregate(_ query: QuerySpecification, groupBy: [String], aggregates: [AggregateProperty]) async throws(RecordStoreError) -> [[String: Value]] {
        note()
        return try await base.aggregate(query, groupBy: groupBy, aggregates: aggregates)
    }
    func explain(_ query: QuerySpecification) async throws(RecordStoreError) -> QueryPlan {
        note()
        return try await base.explain(query)
    }
    func optimize() async throws(RecordStoreError) {
        note()
        return try await base.optimize()
    }
    func history(of zone: ZoneID, after place: HistoryPosition, limit: Int, recordTypes: Set<String>?) async throws(RecordStoreError) -> HistoryPage {
        note()
        return try await base.history(of: zone, after: place, limit: limit, recordTypes: recordTypes)
    }
    func zoneHistory(after place: HistoryPosition, limit: Int) async throws(RecordStoreError) -> ZoneHistoryPage {
        note()
        return try await base.zoneHistory(after: place, limit: limit)
    }
    func pruneHistory(deletedBefore date: Date) async throws(RecordStoreError) -> HistoryPruning {
        note()
        return try await base.pruneHistory(deletedBefore: date)
    }
    var plansRelationshipWalks: Bool { base.plansRelationshipWalks }
    func beginBulkLoad(of recordType: String, incoming: Int) async throws(RecordStoreError) {
        note()
        return try await base.beginBulkLoad(of: recordType, incoming: incoming)
    }
    func finishBulkLoad(progress: StoreOpeningProgressHandler?) async throws(RecordStoreError) {
        note()
        return try await base.finishBulkLoad(progress: progress)
    }
    /// The base engine's sibling, answering the synchronous API too.
    func openSibling(named name: String, progress: StoreOpeningProgressHandler?) async throws(RecordStoreError) -> any StorageEngine {
        note()
        return WaitingEngine(try await base.openSibling(named: name, progress: progress))
    }
}

/// A task executor with threads of its own: its jobs never need a thread of the cooperative pool
/// (nor of Dispatch's global queues, which back that pool on Linux), which the waiting test
/// threads may all be blocking. The jobs are async code that never blocks, so a few threads do.
final class ThreadPoolTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "query.tests.waiting-engine-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
