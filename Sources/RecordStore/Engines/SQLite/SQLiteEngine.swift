import Foundation
import GRDB
import PredicateLanguage

/// The SQLite engine: a GRDB `DatabasePool` in WAL mode (readers run during writes), a table per
/// record type, and queries planned into SQL plus a residual predicate, run by the shared
/// ``SQLExecutor``.
///
/// Every synchronous method runs on the caller's thread through GRDB's blocking API; every
/// `async` one runs the same work through GRDB's `async` API, on GRDB's dispatch queues, so
/// that no cooperative thread waits on the file.
///
/// ```swift
/// let engine = try SQLiteEngine(path: "cities.sqlite")
/// let store = Store(engine: engine)
/// ```
final class SQLiteEngine: EmbeddedStorageEngine {
    let name = "sqlite"
    let secret: StoreSecret
    private let pool: DatabasePool
    let executor: SQLExecutor
    private let storage = SQLiteSchemaStorage()
    /// The commits live queries follow: this handle's as it makes them, others' from the change log.
    let changeFeed: ChangeFeed

    /// Opens (creating when needed) the database file at `path`, and brings an older layout up
    /// to date. With `evaluatorCallbacks` false, the planner does not call back into Swift from
    /// SQL (no `query_test`, `query_distance` nor collations), as on a database server: the
    /// tests run it so to check that fallback.
    init(path: String, evaluatorCallbacks: Bool = true, progress: StoreOpeningProgressHandler? = nil) throws(RecordStoreError) {
        let registry = ComparisonTestRegistry()
        executor = SQLExecutor(dialect: SQLiteDialect(registry: evaluatorCallbacks ? registry : nil))
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.prepareDatabase { db in
            SQLiteFunctions.register(in: db, registry: registry)
            // WAL with synchronous=NORMAL cannot corrupt the database; a power cut may lose the
            // last transactions, never part of one. A 32 MB page cache keeps the indexes of a
            // bulk import in memory.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA cache_size = -32768")
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            let (storage, executor) = (self.storage, self.executor)
            secret = try pool.write { db in
                try storage.createBaseTables(db)
                try SQLiteChangeLog.createTable(db)
                let secret = try SQLiteStoreSecret.load(db)
                let catalog = try executor.catalog(on: SQLiteConnection(db))
                try SQLiteLayoutMigration.migrate(db, catalog: catalog, progress: progress)
                // A bulk load cut off before its end left indexes to build.
                try SQLiteDeferredIndexes(db: db, progress: progress).finish(catalog)
                return secret
            }
        } catch {
            throw Self.storeError(error)
        }
        changeFeed = ChangeFeed(
            storeIdentity: secret.storeIdentifier, source: SQLiteChangeSource(pool: pool, executor: executor), ordering: .consecutive)
    }

    /// A thrown error as a store error.
    static func storeError(_ error: any Error) -> RecordStoreError {
        if let error = error as? RecordStoreError { return error }
        if let error = error as? FormatPredicateError { return .predicate(error) }
        if let error = error as? DatabaseError {
            if let evaluationError = SQLiteFunctions.evaluationError(in: error) { return .predicate(evaluationError) }
            return .storage(error.message ?? error.description)
        }
        if error is CancellationError { return .cancelled }
        return .storage(String(describing: error))
    }

    // MARK: Access

    /// Runs `body` in a read snapshot, on the caller's thread.
    func read<T>(_ body: (Database) throws -> T) throws(RecordStoreError) -> T {
        do {
            return try pool.read(body)
        } catch {
            throw Self.storeError(error)
        }
    }

    /// Runs `body` in a read snapshot, on one of GRDB's reader queues.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws(RecordStoreError) -> T {
        do {
            return try await pool.read(body)
        } catch {
            throw Self.storeError(error)
        }
    }

    /// Runs `body` in a write transaction, on the caller's thread.
    func write<T>(_ body: (Database) throws -> T) throws(RecordStoreError) -> T {
        do {
            return try pool.write(body)
        } catch {
            throw Self.storeError(error)
        }
    }

    /// Runs `body` in a write transaction, on GRDB's writer queue.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws(RecordStoreError) -> T {
        do {
            return try await pool.write(body)
        } catch {
            throw Self.storeError(error)
        }
    }

    // MARK: The work, on a connection

    func modify(_ changes: RecordChangeSet, mode: SchemaMode, _ db: Database) throws -> SaveOutcome {
        var transaction = SQLiteWriteTransaction(db: db, executor: executor)
        return try SaveProcedure.run(changes, mode: mode, in: &transaction)
    }

    func deleteZone(_ zone: ZoneID, _ db: Database) throws -> CommittedChanges {
        let connection = SQLiteConnection(db)
        guard try executor.zoneExists(zone, on: connection) else { throw RecordStoreError.zoneNotFound(zone) }
        try SQLiteRecordWriter(db: db, catalog: executor.catalog(on: connection)).deleteZone(zone)
        var changes = CommittedChanges(sequence: 0, unlisted: [.init(zone: zone)])
        changes.sequence = try SQLiteChangeLog.append(changes, db)
        return changes
    }

    func define(_ schema: RecordTypeSchema, _ db: Database) throws {
        let connection = SQLiteConnection(db)
        var catalog = try executor.catalog(on: connection)
        let before = catalog.recordTypes[schema.name]?.searchableFieldNames
        let changes = try catalog.define(schema)
        try storage.apply(changes, catalog: catalog, db)
        if let updated = catalog.recordTypes[schema.name] {
            try storage.ensureIndexes(updated, db)
            if before != nil, before != updated.searchableFieldNames {
                try SQLiteRecordWriter(db: db, catalog: catalog).rebuildFullText(updated)
            }
        }
        try connection.execute(executor.saveCatalogStatement(catalog))
    }

    /// Starts a bulk load of about `incoming` records into a record type: when the type's table
    /// is missing or holds fewer rows than that, its B-tree indexes are dropped until
    /// ``finishBulkLoad(progress:)`` builds them in one pass (``SQLiteDeferredIndexes``).
    func beginBulkLoad(of recordType: String, incoming: Int) throws(RecordStoreError) {
        let executor = self.executor
        try write { db in
            let table = TableLayout.recordTable(recordType)
            if try db.tableExists(table) {
                // Counting stops at `incoming` rows: a small import into a large table reads little.
                let rows = try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM (SELECT 1 FROM \(SQLiteDialect.quote(table)) LIMIT ?)", arguments: [incoming]) ?? 0
                guard rows < incoming else { return }
            }
            try SQLiteDeferredIndexes(db: db).defer(recordType, catalog: executor.catalog(on: SQLiteConnection(db)))
        }
    }

    /// Builds the indexes a bulk load deferred; `progress` hears each index as it is built.
    func finishBulkLoad(progress: StoreOpeningProgressHandler?) throws(RecordStoreError) {
        let executor = self.executor
        try write { db in
            try SQLiteDeferredIndexes(db: db, progress: progress).finish(executor.catalog(on: SQLiteConnection(db)))
        }
    }

    /// Gathers index statistics (`ANALYZE`, sampling at most 1,000 rows per index) so
    /// SQLite's planner picks the selective index rather than the one that avoids a sort.
    static func optimize(_ db: Database) throws {
        try db.execute(sql: "PRAGMA analysis_limit = 1000")
        try db.execute(sql: "ANALYZE")
    }

    func explain(_ query: QuerySpecification, _ db: Database) throws -> QueryPlan {
        guard let prepared = try executor.prepare(query, on: SQLiteConnection(db)) else {
            return ExplainedQuery.noRecords(engine: name, query: query)
        }
        let statement = try ExplainedQuery.firstStatement(of: prepared, dialect: executor.dialect)
        let explanation = try SQLiteQueryPlanExplanation(statement: statement, db)
        return ExplainedQuery.plan(
            engine: name, prepared: prepared, statement: statement, details: explanation.details, indexes: explanation.indexes,
            estimatedRows: explanation.estimatedRows)
    }
}

extension SQLiteEngine {
    // MARK: Synchronous API

    func modify(_ changes: RecordChangeSet, mode: SchemaMode) throws(RecordStoreError) -> [Record] {
        let outcome = try write { db in try self.modify(changes, mode: mode, db) }
        changeFeed.committed(outcome.changes)
        return outcome.saved
    }

    func records(for ids: [RecordID]) throws(RecordStoreError) -> [RecordID: Record] {
        try read { db in try self.executor.records(for: ids, on: SQLiteConnection(db)) }
    }

    func createZone(_ zone: ZoneID) throws(RecordStoreError) {
        guard !zone.zoneName.isEmpty else { throw .invalidZoneName(zone.zoneName) }
        try write { db in try self.executor.createZone(zone, on: SQLiteConnection(db)) }
    }

    func zones() throws(RecordStoreError) -> [ZoneID] {
        try read { db in try self.executor.zones(on: SQLiteConnection(db)) }
    }

    func deleteZone(_ zone: ZoneID) throws(RecordStoreError) {
        guard zone != .default else { throw .cannotDeleteDefaultZone }
        changeFeed.committed(try write { db in try self.deleteZone(zone, db) })
    }

    func catalog() throws(RecordStoreError) -> SchemaCatalog {
        try read { db in try self.executor.catalog(on: SQLiteConnection(db)) }
    }

    func define(_ schema: RecordTypeSchema) throws(RecordStoreError) {
        try write { db in try self.define(schema, db) }
    }

    func records(_ query: QuerySpecification) throws(RecordStoreError) -> [Record] {
        try read { db in try self.executor.records(query, on: SQLiteConnection(db)) }
    }

    func count(_ query: QuerySpecification) throws(RecordStoreError) -> Int {
        try read { db in try self.executor.count(query, on: SQLiteConnection(db)) }
    }

    func aggregate(_ query: QuerySpecification, groupBy: [String], aggregates: [AggregateProperty]) throws(RecordStoreError) -> [[String: Value]] {
        try read { db in try self.executor.aggregate(query, groupBy: groupBy, aggregates: aggregates, on: SQLiteConnection(db)) }
    }

    func explain(_ query: QuerySpecification) throws(RecordStoreError) -> QueryPlan {
        try read { db in try self.explain(query, db) }
    }

    func optimize() throws(RecordStoreError) {
        try write { db in try Self.optimize(db) }
    }
}

extension SQLiteEngine {
    // MARK: Asynchronous API (the same work, on GRDB's queues)

    func modify(_ changes: RecordChangeSet, mode: SchemaMode) async throws(RecordStoreError) -> [Record] {
        let outcome = try await write { db in try self.modify(changes, mode: mode, db) }
        changeFeed.committed(outcome.changes)
        return outcome.saved
    }

    func records(for ids: [RecordID]) async throws(RecordStoreError) -> [RecordID: Record] {
        try await read { db in try self.executor.records(for: ids, on: SQLiteConnection(db)) }
    }

    func createZone(_ zone: ZoneID) async throws(RecordStoreError) {
        guard !zone.zoneName.isEmpty else { throw .invalidZoneName(zone.zoneName) }
        try await write { db in try self.executor.createZone(zone, on: SQLiteConnection(db)) }
    }

    func zones() async throws(RecordStoreError) -> [ZoneID] {
        try await read { db in try self.executor.zones(on: SQLiteConnection(db)) }
    }

    func deleteZone(_ zone: ZoneID) async throws(RecordStoreError) {
        guard zone != .default else { throw .cannotDeleteDefaultZone }
        changeFeed.committed(try await write { db in try self.deleteZone(zone, db) })
    }

    func catalog() async throws(RecordStoreError) -> SchemaCatalog {
        try await read { db in try self.executor.catalog(on: SQLiteConnection(db)) }
    }

    func define(_ schema: RecordTypeSchema) async throws(RecordStoreError) {
        try await write { db in try self.define(schema, db) }
    }

    func records(_ query: QuerySpecification) async throws(RecordStoreError) -> [Record] {
        try await read { db in try self.executor.records(query, on: SQLiteConnection(db)) }
    }

    func count(_ query: QuerySpecification) async throws(RecordStoreError) -> Int {
        try await read { db in try self.executor.count(query, on: SQLiteConnection(db)) }
    }

    func aggregate(_ query: QuerySpecification, groupBy: [String], aggregates: [AggregateProperty]) async throws(RecordStoreError) -> [[String: Value]] {
        try await read { db in try self.executor.aggregate(query, groupBy: groupBy, aggregates: aggregates, on: SQLiteConnection(db)) }
    }

    func explain(_ query: QuerySpecification) async throws(RecordStoreError) -> QueryPlan {
        try await read { db in try self.explain(query, db) }
    }

    func optimize() async throws(RecordStoreError) {
        try await write { db in try Self.optimize(db) }
    }
}
