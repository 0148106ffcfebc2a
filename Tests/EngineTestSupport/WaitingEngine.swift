import Dispatch
import Foundation
import PredicateLanguage
import RecordStore

/// Test-only: an async engine (PostgreSQL) behind the synchronous ``EmbeddedStorageEngine``
/// API, so that the engine-parameterized suites, which are written against `Store`'s
/// synchronous methods, run on it unchanged.
///
/// Each call starts the async work on ``WaitingEngine/executor`` (threads of its own, never the
/// cooperative pool) and blocks the calling thread until it finishes. This is a test harness
/// only: the library never blocks a thread on I/O, and PostgreSQL stores opened by users answer
/// only the `async` methods. The async API itself runs on PostgreSQL in the async suites
/// (`AsyncFormsTests`, `StreamTests`, `PostgresEngineTests`).
final class WaitingEngine: EmbeddedStorageEngine {
    let base: any StorageEngine

    init(_ base: any StorageEngine) {
        self.base = base
    }

    var name: String { base.name }
    var secret: StoreSecret { base.secret }
    var changeFeed: ChangeFeed { base.changeFeed }

    /// The threads the waited-for work runs on.
    static let executor = ThreadPoolTaskExecutor(threads: 4)

    /// Runs async work on ``executor`` and waits for its result.
    static func wait<T: Sendable>(_ work: @escaping @Sendable () async throws(RecordStoreError) -> T) throws(RecordStoreError) -> T {
        let semaphore = DispatchSemaphore(value: 0)
        let outcome = Outcome<T>()
        Task(executorPreference: executor) {
            do throws(RecordStoreError) {
                outcome.result = .success(try await work())
            } catch {
                outcome.result = .failure(error)
            }
            semaphore.signal()
        }
        semaphore.wait()
        switch outcome.result {
        case .success(let value)?: return value
        case .failure(let error)?: throw error
        case nil: throw .cancelled
        }
    }

    private final class Outcome<T>: @unchecked Sendable {
        // Written once by the task before it signals; read after the wait.
        var result: Result<T, RecordStoreError>?
    }

    func modify(_ changes: RecordChangeSet, mode: SchemaMode) throws(RecordStoreError) -> [Record] {
        try Self.wait { [base] () throws(RecordStoreError) in try await base.modify(changes, mode: mode) }
    }
    func records(for ids: [RecordID]) throws(RecordStoreError) -> [RecordID: Record] {
        try Self.wait { [base] () throws(RecordStoreError) in try await base.records(for: ids) }
    }
    func createZone(_ zone: ZoneID) throws(RecordStoreError) {
        try Self.wait { [base] () throws(RecordStoreError) in try await base.createZone(zone) }
    }
    func zones() throws(RecordStoreError) -> [ZoneID] {
        try Self.wait { [base] () throws(RecordStoreError) in try await base.zones() }
    }
    func deleteZone(_ zone: ZoneID) throws(RecordStoreError) {
        try Self.wait { [base] () throws(RecordStoreError) in try await base.deleteZone(zone) }
    }
    func catalog() throws(RecordStoreError) -> SchemaCatalog {
        try Self.wait { [base] () throws(RecordStoreError) in try await base.catalog() }
    }
    func define(_ schema: RecordTypeSchema) throws(RecordStoreError) {
        try Self.wait { [base] () throws(RecordStoreError) in try await base.define(schema) }
    }
    func records(_ query: QuerySpecification) throws(RecordStoreError) -> [Record] {
        try Self.wait { [base] () throws(RecordStoreError) in try await base.records(query) }
    }
    func count(_ query: QuerySpecification) throws(RecordStoreError) -> Int {
        try Self.wait { [base] () throws(RecordStoreError) in try await base.count(query) }
    }
    func aggregate(_ query: QuerySpecification, groupBy: [String], aggregates: [AggregateProperty]) throws(RecordStoreError) -> [[String: Value]] {
        try Self.wait { [base] () throws(RecordStoreError) in try await base.aggregate(query, groupBy: groupBy, aggregates: aggregates) }
    }
    func explain(_ query: QuerySpecification) throws(RecordStoreError) -> QueryPlan {
        try Self.wait { [base] () throws(RecordStoreError) in try await base.explain(query) }
    }
    func optimize() throws(RecordStoreError) {
        try Self.wait { [base] () throws(RecordStoreError) in try await base.optimize() }
    }

    // The async API goes straight to the engine.
    func modify(_ changes: RecordChangeSet, mode: SchemaMode) async throws(RecordStoreError) -> [Record] { try await base.modify(changes, mode: mode) }
    func records(for ids: [RecordID]) async throws(RecordStoreError) -> [RecordID: Record] { try await base.records(for: ids) }
    func createZone(_ zone: ZoneID) async throws(RecordStoreError) { try await base.createZone(zone) }
    func zones() async throws(RecordStoreError) -> [ZoneID] { try await base.zones() }
    func deleteZone(_ zone: ZoneID) async throws(RecordStoreError) { try await base.deleteZone(zone) }
    func catalog() async throws(RecordStoreError) -> SchemaCatalog { try await base.catalog() }
    func define(_ schema: RecordTypeSchema) async throws(RecordStoreError) { try await base.define(schema) }
    func records(_ query: QuerySpecification) async throws(RecordStoreError) -> [Record] { try await base.records(query) }
    func count(_ query: QuerySpecification) async throws(RecordStoreError) -> Int { try await base.count(query) }
    func aggregate(_ query: QuerySpecification, groupBy: [String], aggregates: [AggregateProperty]) async throws(RecordStoreError) -> [[String: Value]] {
        try await base.aggregate(query, groupBy: groupBy, aggregates: aggregates)
    }
    func explain(_ query: QuerySpecification) async throws(RecordStoreError) -> QueryPlan { try await base.explain(query) }
    func optimize() async throws(RecordStoreError) { try await base.optimize() }
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
