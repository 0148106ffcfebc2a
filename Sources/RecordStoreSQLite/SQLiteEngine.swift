import Foundation
import GRDB
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// The SQLite engine: a GRDB `DatabasePool` in WAL mode (readers run during writes), a table per
/// record type, and queries planned into SQL plus a residual predicate, run by the shared
/// ``SQLExecutor``.
///
/// Each operation is written once, as an `async` method. Called from `async` code, it runs
/// GRDB's blocking API on a Dispatch thread, so that no cooperative thread waits on the file and
/// no reader is held while a task waits to resume (see `DatabasePool.readReleasingFirst`); for a
/// synchronous caller of ``Store`` (`SynchronousCall/isWaiting`), it runs on the caller's thread,
/// without a hop to a queue and back.
///
/// ```swift
/// let engine = try SQLiteEngine(path: "cities.sqlite")
/// let store = Store(engine: engine)
/// ```
final class SQLiteEngine: StorageEngine {
    let name = "sqlite"
    /// Its work is a local file: ``Store``'s synchronous methods may wait for it.
    var answersSynchronously: Bool { true }
    let secret: StoreSecret
    let pool: DatabasePool
    let executor: SQLExecutor
    private let storage = SQLiteSchemaStorage()
    /// The commits live queries follow: this handle's as it makes them, others' from the change log.
    let changeFeed: ChangeFeed
    /// The database file's path, as given.
    let path: String
    /// Whether the planner calls back into Swift from SQL (the sibling stores do as this one).
    let evaluatorCallbacks: Bool

    /// Opens (creating when needed) the database file at `path`, and brings an older layout up
    /// to date. With `evaluatorCallbacks` false, the planner does not call back into Swift from
    /// SQL (no `query_test`, `query_distance` nor collations), as on a database server: the
    /// tests run it so to check that fallback.
    init(path: String, evaluatorCallbacks: Bool = true, progress: StoreOpeningProgressHandler? = nil) throws(RecordStoreError) {
        self.path = path
        self.evaluatorCallbacks = evaluatorCallbacks
        let registry = ComparisonTestRegistry()
        executor = SQLExecutor(dialect: SQLiteDialect(registry: evaluatorCallbacks ? registry : nil))
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.prepareDatabase { db in
            try SQLiteFunctions.register(in: db, registry: registry)
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
                let catalog = try SQLiteConnection.run(db) { try await executor.catalog(on: $0) }
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
            if let refusal = RelationshipWalkRefusal.error(in: error.message ?? "") { return refusal }
            return .storage(error.message ?? error.description)
        }
        if error is CancellationError { return .cancelled }
        return .storage(String(describing: error))
    }

    // MARK: Access

    /// Runs `body` in a read snapshot, on the synchronous caller's thread or a Dispatch thread.
    private func reading<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(RecordStoreError) -> T {
        let tracing = StoreTracing.capture()
        return try await pool.readReleasingFirst { db in try tracing.restore { try body(db) } }
    }

    /// Runs `body` in a write transaction, on the synchronous caller's thread or a Dispatch thread.
    private func writing<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(RecordStoreError) -> T {
        let tracing = StoreTracing.capture()
        return try await pool.writeReleasingFirst { db in try tracing.restore { try body(db) } }
    }

    /// Runs shared SQL code (``SQLExecutor``) in a read snapshot.
    private func readingSQL<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) async throws -> T) async throws(RecordStoreError) -> T {
        try await reading { db in try SQLiteConnection.run(db, body) }
    }

    // MARK: Siblings

    /// The SQLite file called `name` beside this one: `cities.sqlite` has `cities.development.sqlite`
    /// (a file without an extension, `cities`, has `cities.development`).
    func openSibling(named name: String, progress: StoreOpeningProgressHandler?) async throws(RecordStoreError) -> any StorageEngine {
        let (path, evaluatorCallbacks) = (Self.siblingPath(of: self.path, named: name), self.evaluatorCallbacks)
        return try await BlockingWork.run { () throws(RecordStoreError) in
            try SQLiteEngine(path: path, evaluatorCallbacks: evaluatorCallbacks, progress: progress)
        }
    }

    /// The path of the sibling `name` of the file at `path`: the name before the file's extension.
    ///
    /// ```swift
    /// SQLiteEngine.siblingPath(of: "/data/cities.sqlite", named: "development")   // "/data/cities.development.sqlite"
    /// ```
    static func siblingPath(of path: String, named name: String) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let file = path[slash...]
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return path + "." + name }
        return String(path[..<dot]) + "." + name + String(path[dot...])
    }

    // MARK: Writes

    func modify(_ changes: RecordChangeSet, mode: SchemaMode) async throws(RecordStoreError) -> [Record] {
        let executor = self.executor
        let outcome = try await writing { db in
            try SQLiteConnection.run(db) { _ in
                var transaction = SQLiteWriteTransaction(db: db, executor: executor)
                return try await SaveProcedure.run(changes, mode: mode, in: &transaction)
            }
        }
        changeFeed.committed(outcome.changes)
        return outcome.saved
    }

    /// A batch update as a few statements over the matching rows (``SQLiteBatchUpdate``).
    func updateRecords(_ request: SetBasedUpdate.Request) async throws(RecordStoreError) -> [String]? {
        let executor = self.executor
        let feed = changeFeed
        let outcome = try await writing { db in
            try SQLiteConnection.run(db) { _ in
                var transaction = SQLiteWriteTransaction(db: db, executor: executor)
                return try await SQLiteBatchUpdate.run(request, in: &transaction, wantsRecords: feed.isWanted)
            }
        }
        guard let outcome else { return nil }
        if !outcome.changes.isEmpty { changeFeed.committed(outcome.changes) }
        return outcome.recordNames
    }

    func createZone(_ zone: ZoneID) async throws(RecordStoreError) {
        guard !zone.zoneName.isEmpty else { throw .invalidZoneName(zone.zoneName) }
        let executor = self.executor
        try await writing { db in try SQLiteConnection.run(db) { try await executor.createZone(zone, on: $0) } }
    }

    func deleteZone(_ zone: ZoneID) async throws(RecordStoreError) {
        guard zone != .default else { throw .cannotDeleteDefaultZone }
        let executor = self.executor
        let changes = try await writing { db in
            try SQLiteConnection.run(db) { connection in
                guard try await executor.zoneExists(zone, on: connection) else { throw RecordStoreError.zoneNotFound(zone) }
                let catalog = try await executor.catalog(on: connection)
                try SQLiteRecordWriter(db: db, catalog: catalog).deleteZone(zone)
                try await executor.recordZoneDeletion(zone, date: Date(), on: connection)
                var changes = CommittedChanges(sequence: 0, unlisted: [.init(zone: zone)])
                changes.sequence = try SQLiteChangeLog.append(changes, db)
                return changes
            }
        }
        changeFeed.committed(changes)
    }

    // MARK: History

    func history(of zone: ZoneID, after place: HistoryPosition, limit: Int, recordTypes: Set<String>?) async throws(RecordStoreError) -> HistoryPage {
        let executor = self.executor
        return try await readingSQL { try await executor.history(of: zone, after: place, limit: limit, recordTypes: recordTypes, on: $0) }
    }

    func zoneHistory(after place: HistoryPosition, limit: Int) async throws(RecordStoreError) -> ZoneHistoryPage {
        let executor = self.executor
        return try await readingSQL { try await executor.zoneHistory(after: place, limit: limit, on: $0) }
    }

    func pruneHistory(deletedBefore date: Date) async throws(RecordStoreError) -> HistoryPruning {
        let executor = self.executor
        return try await writing { db in try SQLiteConnection.run(db) { try await executor.pruneHistory(deletedBefore: date, on: $0) } }
    }

    /// Defines the record types, then the templates, in one write transaction: the columns and
    /// indexes each change asks for are made (and filled) in it, and the catalog is saved once.
    /// The indexes are built in the transaction; `progress` hears nothing.
    func define(
        _ recordTypes: [RecordTypeSchema], templates: [FetchRequestTemplate], progress: StoreOpeningProgressHandler?
    ) async throws(RecordStoreError) {
        let (executor, storage) = (self.executor, self.storage)
        try await writing { db in
            try SQLiteConnection.run(db) { connection in
                var catalog = try await executor.catalog(on: connection)
                var migrationStorage = SQLiteMigrationStorage(db: db, storage: storage)
                try await SchemaMigrationProcedure.checkAddedConstraints(of: recordTypes, catalog: catalog, storage: &migrationStorage)
                try storage.define(recordTypes, templates: templates, catalog: &catalog, db)
                // Relationships may name types of the same batch: checked once all are in.
                try catalog.checkRelationships()
                try connection.execute(executor.saveCatalogStatement(catalog))
            }
        }
    }

    /// Migrates the schema in one write transaction (``SQLiteMigrationStorage``): the columns
    /// and tables renamed or dropped, defaults filled in, the indexes of restructured types built
    /// again in it; `progress` hears nothing.
    func migrate(_ migration: SchemaMigration, progress: StoreOpeningProgressHandler?) async throws(RecordStoreError) {
        let (executor, storage) = (self.executor, self.storage)
        let changes = try await writing { db in
            try SQLiteConnection.run(db) { connection in
                var catalog = try await executor.catalog(on: connection)
                var migrationStorage = SQLiteMigrationStorage(db: db, storage: storage)
                try await SchemaMigrationProcedure.run(migration, catalog: &catalog, storage: &migrationStorage)
                try connection.execute(executor.saveCatalogStatement(catalog))
                // Records were renamed and filled in without being listed: every observer, in
                // this process and the others, reads again.
                var changes = CommittedChanges(sequence: 0, unlisted: [.everything])
                changes.sequence = try SQLiteChangeLog.append(changes, db)
                return changes
            }
        }
        changeFeed.committed(changes)
    }

    /// Starts a bulk load of about `incoming` records into a record type: when the type's table
    /// is missing or holds fewer rows than that, its B-tree indexes are dropped until
    /// ``finishBulkLoad(progress:)`` builds them in one pass (``SQLiteDeferredIndexes``).
    func beginBulkLoad(of recordType: String, incoming: Int) async throws(RecordStoreError) {
        let executor = self.executor
        try await writing { db in
            let table = TableLayout.recordTable(recordType)
            if try db.tableExists(table) {
                // Counting stops at `incoming` rows: a small import into a large table reads little.
                let rows = try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM (SELECT 1 FROM \(SQLiteDialect.quote(table)) LIMIT ?)", arguments: [incoming]) ?? 0
                guard rows < incoming else { return }
            }
            let catalog = try SQLiteConnection.run(db) { try await executor.catalog(on: $0) }
            try SQLiteDeferredIndexes(db: db).defer(recordType, catalog: catalog)
        }
    }

    /// Builds the indexes a bulk load deferred; `progress` hears each index as it is built.
    func finishBulkLoad(progress: StoreOpeningProgressHandler?) async throws(RecordStoreError) {
        let executor = self.executor
        try await writing { db in
            let catalog = try SQLiteConnection.run(db) { try await executor.catalog(on: $0) }
            try SQLiteDeferredIndexes(db: db, progress: progress).finish(catalog)
        }
    }

    /// Gathers index statistics (`ANALYZE`, sampling at most 1,000 rows per index) so
    /// SQLite's planner picks the selective index rather than the one that avoids a sort.
    /// Walks that ``SQLPlanner`` decides exactly run in SQL, through the reference indexes.
    var plansRelationshipWalks: Bool { true }

    func optimize() async throws(RecordStoreError) {
        try await writing { db in
            try db.execute(sql: "PRAGMA analysis_limit = 1000")
            try db.execute(sql: "ANALYZE")
        }
    }

    // MARK: Reads

    func records(for ids: [RecordID]) async throws(RecordStoreError) -> [RecordID: Record] {
        let executor = self.executor
        return try await readingSQL { try await executor.records(for: ids, on: $0) }
    }

    func zones() async throws(RecordStoreError) -> [ZoneID] {
        let executor = self.executor
        return try await readingSQL { try await executor.zones(on: $0) }
    }

    func catalog() async throws(RecordStoreError) -> SchemaCatalog {
        let executor = self.executor
        return try await readingSQL { try await executor.catalog(on: $0) }
    }

    func records(_ query: QuerySpecification) async throws(RecordStoreError) -> [Record] {
        let executor = self.executor
        return try await readingSQL { try await executor.records(query, on: $0) }
    }

    func count(_ query: QuerySpecification) async throws(RecordStoreError) -> Int {
        let executor = self.executor
        return try await readingSQL { try await executor.count(query, on: $0) }
    }

    func aggregate(_ query: QuerySpecification, groupBy: [String], aggregates: [AggregateProperty]) async throws(RecordStoreError) -> [[String: Value]] {
        let executor = self.executor
        return try await readingSQL { try await executor.aggregate(query, groupBy: groupBy, aggregates: aggregates, on: $0) }
    }

    func explain(_ query: QuerySpecification) async throws(RecordStoreError) -> QueryPlan {
        let (executor, name) = (self.executor, self.name)
        return try await readingSQL { connection in
            try await executor.explain(query, engine: name, on: connection) { statement in
                try SQLiteQueryPlanExplanation(statement: statement, connection.db).explained
            }
        }
    }
}
