// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import CoreMetrics
import Foundation
import Logging
import PostgresNIO
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// The PostgreSQL engine: the store's tables in a PostgreSQL database (``PostgresLayout``),
/// queries planned by the shared planner with ``PostgresDialect`` and run by the shared
/// ``SQLExecutor``, through a PostgresNIO connection pool.
///
/// - A query runs as one statement when it can: planned against the catalog the engine keeps,
///   with a check in the statement that this catalog is still the stored one
///   (``PostgresCatalogCache``). Other reads (and a query whose check failed) run in a
///   `REPEATABLE READ, READ ONLY` transaction: every statement of one query (the catalog, the
///   rows, a keyset's segments) sees one snapshot.
/// - Writes run in a read-committed transaction, all or nothing. A stored record is updated only
///   while its change tag is the one the save read; a save that lost a race to another writer
///   (or a schema change, a serialization failure, a deadlock) runs again from its start, and the
///   save rules then answer on what is stored now (``RecordStoreError/conflict(_:expected:found:)``
///   for a stale change tag).
/// - Schema changes hold a transaction-level advisory lock of the store, so two processes never
///   change the layout at once.
/// - The cursor key and store identifier live in the database (`$metadata`): a cursor made by
///   one process continues in another.
/// - Opened on a hot standby (the URL's server is in recovery), the store is read-only
///   (``PostgresStandbyStore``): it reads the tables replicated from the primary and refuses
///   every write and live observation with ``RecordStoreError/readOnlyStore(server:reason:)``.
///
/// ```swift
/// let store = try await Store.open(url: "postgres://app:secret@localhost/cities")
/// ```
final class PostgresEngine: StorageEngine {
    let name = "postgres"
    let secret: StoreSecret
    let executor: SQLExecutor
    let location: PostgresLocation
    /// The catalog queries are planned against without reading it first.
    private let catalogCache = PostgresCatalogCache()
    /// The primary's connections (among the URL's hosts, the one that is the primary now):
    /// every write, and the reads no replica can answer.
    let primary: PostgresPrimary
    /// The hot standbys reads go to when they have replayed enough (none without `replica`
    /// parameters in the URL).
    let replicas: PostgresReadReplicas
    var poolExecutor: (any TaskExecutor)? { primary.poolExecutor }
    private let logger: Logger
    /// The commits live queries follow, heard with `LISTEN` (``PostgresChangeNotifications``).
    let changeFeed: ChangeFeed
    /// The channel this store's commits are notified on.
    let changeChannel: String
    /// Whether the store was opened on a hot standby: every write is refused (``PostgresStandbyStore``).
    let isReadOnly: Bool

    /// How long a save waits for its own change notification while this process observes.
    static let ownNotificationWait: Duration = .seconds(2)

    /// How often a write that lost a race runs again before it fails.
    static let writeAttempts = 12

    /// An engine on `server`, the host of `location` it opened on; read-only when that is a standby.
    private init(
        location: PostgresLocation, server: PostgresLocation, secret: StoreSecret, isReadOnly: Bool, poolExecutor: (any TaskExecutor)?,
        logger: Logger
    ) {
        self.location = location
        self.secret = secret
        self.logger = logger
        self.isReadOnly = isReadOnly
        let primary = PostgresPrimary(server, candidates: location.hostLocations, poolExecutor: poolExecutor, logger: logger)
        self.primary = primary
        replicas = PostgresReadReplicas(
            location.replicaLocations.map { PostgresServerConnections(location: $0, poolExecutor: poolExecutor, logger: logger) },
            replayWait: location.replicaWait)
        executor = SQLExecutor(dialect: PostgresDialect())
        let channel = PostgresChangeNotifications.channel(for: location)
        changeChannel = channel
        let reader = RecordReaderBox()
        // A standby runs no LISTEN: observations of a read-only store are refused.
        changeFeed = isReadOnly
            ? ChangeFeed(
                storeIdentity: secret.storeIdentifier, source: nil, ordering: .arrival,
                refusal: PostgresStandbyStore.observationRefusal(server: server.server))
            : ChangeFeed(
                storeIdentity: secret.storeIdentifier,
                source: PostgresChangeSource(client: { primary.connections.client }, channel: channel) { ids throws(RecordStoreError) in
                    guard let engine = reader.engine else { throw .cancelled }
                    return try await engine.records(for: ids)
                },
                ordering: .arrival)
        reader.engine = self
    }

    /// Connects, creates the schema and the store's tables when missing (under the store's
    /// lock), reads the cursor key, and starts the connection pool. A server that cannot be
    /// reached, refuses the credentials, or has no such database is
    /// ``RecordStoreError/serverUnavailable(server:reason:)``, within the connect timeout.
    ///
    /// On a hot standby (the one host of the URL, or with `target_session_attrs=any` the first
    /// of its hosts that answers), nothing is created: the store opens read-only when its tables
    /// are there, and is refused as an unavailable server otherwise (``PostgresStandbyStore``).
    ///
    /// `poolExecutor`, when given, runs the connection pool's background work and the task each
    /// call runs on its connection (tests that wait for the engine from blocked threads give it
    /// threads of its own).
    ///
    /// Index builds a bulk load or a schema change left unfinished (a process that died) are
    /// finished here (``PostgresIndexBuilds``); `progress` hears each index.
    static func open(
        _ location: PostgresLocation, poolExecutor: (any TaskExecutor)? = nil, progress: StoreOpeningProgressHandler? = nil
    ) async throws(RecordStoreError) -> PostgresEngine {
        var logger = Logger(label: "query.postgres")
        logger.logLevel = .critical
        let opened: (secret: StoreSecret, isStandby: Bool)
        // Of several hosts, the first that answers (and is not a standby, when the URL says read-write).
        let candidates = location.hostLocations
        let server = candidates.count > 1 ? await PostgresPrimary.firstUsable(candidates, logger: logger) ?? location : location
        do {
            opened = try await bootstrap(server, executor: poolExecutor, logger: logger, progress: progress)
        } catch {
            throw PostgresErrorMapping.storeError(error, server: server.server)
        }
        return PostgresEngine(
            location: location, server: server, secret: opened.secret, isReadOnly: opened.isStandby, poolExecutor: poolExecutor, logger: logger)
    }

    /// The first connection: checks that the server answers, creates what is missing, and
    /// loads the store's secret; on a standby, only checks and loads (``PostgresStandbyStore``).
    private static func bootstrap(
        _ location: PostgresLocation, executor: (any TaskExecutor)?, logger: Logger, progress: StoreOpeningProgressHandler?
    ) async throws -> (secret: StoreSecret, isStandby: Bool) {
        let configuration = try location.connectionConfiguration()
        let server = location.server
        let timeout = location.connectTimeout
        let connection = try await withWatchdog(every: timeout, executor: executor) { _ in
            RecordStoreError.serverUnavailable(server: server, reason: "no answer within \(timeout)")
        } body: {
            try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        }
        do {
            let sql = PostgresSQLConnection(connection, logger: logger)
            if try await sql.firstRow(SQLStatement(sql: "SELECT pg_is_in_recovery()"), { $0.value(at: 0) }) == .integer(1) {
                let secret = try await PostgresStandbyStore.open(on: sql, location: location)
                try? await connection.close()
                return (secret, true)
            }
            try await sql.execute(SQLStatement(sql: "BEGIN"))
            try await sql.execute(SQLStatement(sql: "SELECT pg_advisory_xact_lock($1)", arguments: [.integer(lockKey(location))]))
            if let schema = location.schema {
                try await sql.execute(SQLStatement(sql: "CREATE SCHEMA IF NOT EXISTS \(PostgresDialect.quote(schema))"))
            }
            try await PostgresSchemaStorage(connection: sql).createBaseTables()
            try await PostgresAssetStorage(connection: sql).createTables()
            let secret = try await PostgresStoreMetadata(connection: sql).loadSecret()
            let catalog = try await SQLExecutor(dialect: PostgresDialect()).catalog(on: sql)
            try await PostgresSchemaStorage(connection: sql).addSpellingColumns(catalog)
            try await PostgresLayoutMigration(connection: sql).migrate(catalog: catalog)
            try await sql.execute(PostgresChangePositions.raiseBaseStatement())
            try await PostgresStoreMetadata(connection: sql).refreshSortKeys(catalog: catalog)
            // A bulk load cut off before its end left indexes to build.
            try await lockSchema(on: sql)
            try await PostgresIndexBuilds(connection: sql, progress: progress).finishDeferred(catalog: catalog)
            try await sql.execute(SQLStatement(sql: "COMMIT"))
            // So did a schema change whose concurrent builds were cut off.
            try await buildPendingIndexes(on: sql, progress: progress)
            try? await connection.close()
            return (secret, false)
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Builds the indexes schema changes left pending (``PostgresIndexBuilds/buildPending(executor:)``),
    /// outside any transaction; again when a concurrent build lost a race (a deadlock between
    /// two of them), up to ``writeAttempts`` times.
    static func buildPendingIndexes(on connection: PostgresSQLConnection, progress: StoreOpeningProgressHandler?) async throws {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await PostgresIndexBuilds(connection: connection, progress: progress)
                    .buildPending(executor: SQLExecutor(dialect: PostgresDialect()))
            } catch where PostgresErrorMapping.isRace(error) && attempt < writeAttempts {
                try? await Task.sleep(for: .milliseconds(Int64.random(in: 1...Int64(5 * attempt))))
            }
        }
    }

    /// The key of the store's advisory lock: its database and schema.
    static func lockKey(_ location: PostgresLocation) -> Int64 {
        Int64(bitPattern: PostgresLayout.stableHash("query-store:\(location.database):\(location.schema ?? "public")"))
    }

    /// Takes the store's schema lock until the transaction ends.
    static func lockSchema(on connection: PostgresSQLConnection) async throws {
        try await connection.execute(SQLStatement(
            sql: "SELECT pg_advisory_xact_lock(hashtextextended('query-store-schema:' || current_database() || ':' || current_schema(), 0))"))
    }

    // MARK: Transactions

    /// Runs `body` on a leased connection of the primary (``PostgresServerConnections/withConnection(_:)``).
    func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresSQLConnection) async throws -> T) async throws -> T {
        try await primary.withConnection(body)
    }

    /// Throws ``RecordStoreError/readOnlyStore(server:reason:)`` when the store was opened on a
    /// standby (``isReadOnly``), before anything reaches the server: ``write(_:)`` calls it, and
    /// so do the writes that do not go through it. One that forgets is refused by the standby
    /// itself, which ``storeError(_:)`` answers the same way.
    func refuseWritesWhenReadOnly() throws(RecordStoreError) {
        if isReadOnly { throw PostgresStandbyStore.writeRefusal(server: primary.connections.location.server) }
    }

    /// A thrown error as a store error (``PostgresErrorMapping/storeError(_:server:)``). On a
    /// store opened on a standby, the server's refusal of a write (SQLSTATE 25006,
    /// read_only_sql_transaction) is ``RecordStoreError/readOnlyStore(server:reason:)``, as if
    /// ``refuseWritesWhenReadOnly()`` had refused it; on a writable store it means the primary
    /// moved, and stays ``RecordStoreError/serverUnavailable(server:reason:)``.
    func storeError(_ error: any Error) -> RecordStoreError {
        if isReadOnly, PostgresErrorMapping.isReadOnlyRefusal(error) {
            return PostgresStandbyStore.writeRefusal(server: primary.connections.location.server)
        }
        return PostgresErrorMapping.storeError(error, server: location.server)
    }

    /// Runs `body` in a read-only snapshot.
    func read<T: Sendable>(_ body: @escaping @Sendable (PostgresSQLConnection) async throws -> T) async throws(RecordStoreError) -> T {
        let (catalogCache, executor) = (self.catalogCache, self.executor)
        do {
            return try await retryingRecoveryConflicts {
                try await self.replicas.read(primary: self.primary) { connection in
                    try await Self.inSnapshot(on: connection, catalogCache: catalogCache, executor: executor, body)
                }
            }
        } catch {
            throw storeError(error)
        }
    }

    /// How many times a read of a store opened on a standby runs when replaying the primary's
    /// changes cancels it.
    static let recoveryConflictAttempts = 4

    /// Runs a read, and on a store opened on a standby runs it again when the standby cancelled
    /// it to replay the primary's changes (``PostgresErrorMapping/isRecoveryConflict(_:)``: a
    /// lock or a row version the replay needed; after `max_standby_streaming_delay`). The next
    /// run takes a new snapshot and no longer stands in the replay's way. A store on a primary
    /// never sees the error this way: its replica reads fall back to the primary
    /// (``PostgresReadReplicas``).
    private func retryingRecoveryConflicts<T: Sendable>(_ read: @Sendable () async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await read()
            } catch where isReadOnly && attempt < Self.recoveryConflictAttempts && PostgresErrorMapping.isRecoveryConflict(error) {
                attempt += 1
            }
        }
    }

    /// Runs `body` in a read-only snapshot that begins after the read's change bound was found
    /// on the primary (``PostgresChangePositions/bound(on:)``): the history's reads and backups.
    /// With replicas, the snapshot is a replica's that has replayed what the primary had written
    /// once the bound was found (``PostgresReadReplicas``), so it holds every commit under the
    /// bound; the bound itself is the primary's, which a standby could only take from its
    /// snapshot's `xmin`, held back by any long transaction of the cluster. A body with effects
    /// outside the database says `runsOnce` (``PostgresReadReplicas/read(primary:runsOnce:_:)``).
    func readChanges<T: Sendable>(
        runsOnce: Bool = false, _ body: @escaping @Sendable (PostgresSQLConnection, PostgresChangePositions.ChangeBound) async throws -> T
    ) async throws(RecordStoreError) -> T {
        let (catalogCache, executor) = (self.catalogCache, self.executor)
        let read: @Sendable (PostgresSQLConnection, PostgresChangePositions.ChangeBound) async throws -> T = { connection, bound in
            try await Self.inSnapshot(on: connection, catalogCache: catalogCache, executor: executor) { connection in
                try await body(connection, bound)
            }
        }
        do {
            // Without replicas, the bound and the read take one connection.
            guard replicas.exist else {
                let primary = self.primary
                let once: @Sendable () async throws -> T = {
                    try await primary.withConnection { connection in try await read(connection, try await PostgresChangePositions.bound(on: connection)) }
                }
                // A body with effects outside the database does not run twice.
                if runsOnce { return try await once() }
                return try await retryingRecoveryConflicts(once)
            }
            let bound = try await primary.withConnection { connection in try await PostgresChangePositions.bound(on: connection) }
            return try await replicas.read(primary: primary, runsOnce: runsOnce) { connection in try await read(connection, bound) }
        } catch {
            throw storeError(error)
        }
    }

    /// Runs `body` in a `REPEATABLE READ, READ ONLY` transaction on `connection`, keeping the
    /// catalog first when none is kept.
    private static func inSnapshot<T: Sendable>(
        on connection: PostgresSQLConnection, catalogCache: PostgresCatalogCache, executor: SQLExecutor,
        _ body: @escaping @Sendable (PostgresSQLConnection) async throws -> T
    ) async throws -> T {
        try await connection.execute(SQLStatement(sql: "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"))
        do {
            if catalogCache.current == nil { try await catalogCache.refresh(on: connection, executor: executor) }
            let result = try await body(connection)
            try await connection.execute(SQLStatement(sql: "COMMIT"))
            return result
        } catch {
            try? await connection.execute(SQLStatement(sql: "ROLLBACK"))
            throw error
        }
    }

    /// A query planned against the kept catalog, with its check, to run as one statement; nil
    /// when no catalog is kept, the query does not validate against it (a type or field it does
    /// not know yet), or its condition needs the parser check first: the long way decides then.
    private func preparedAgainstKnownCatalog(_ query: QuerySpecification) -> RecordStoreSQL.PreparedQuery? {
        guard let known = catalogCache.current,
              // A query over a hierarchy runs one query per type in one transaction.
              !HierarchyQuery.applies(to: query, catalog: known.catalog),
              var prepared = try? RecordStoreSQL.PreparedQuery(query, catalog: known.catalog, zoneExists: true, dialect: executor.dialect),
              prepared.parserCheck == nil else { return nil }
        prepared.catalogCheck = known.check(zone: query.zone)
        return prepared
    }

    /// Whether the kept catalog is still the stored one, by its generation (one statement, on
    /// the server reads go to); forgets it when it is not.
    private func isStillStored(_ known: PostgresCatalogCache.Known) async throws(RecordStoreError) -> Bool {
        let statement = SQLStatement(sql: "SELECT generation FROM \(PostgresDialect.quote(TableLayout.schemaTable)) WHERE id = 1")
        let stored = try await readInOneStatement { connection in
            try await connection.firstRow(statement) { row in row.value(at: 0) }
        }
        guard case .integer(known.generation)?? = stored else {
            catalogCache.invalidate()
            return false
        }
        return true
    }

    /// Throws the refusal of a query of a record type the kept catalog does not have, once one
    /// statement found that catalog still stored: the long way would read the same catalog and
    /// throw the same error (``QueryValidation`` checks the type first), in a transaction of
    /// three round trips. A server answers every save so: it looks for the shares of the saved
    /// records, in zones that mostly have none.
    private func refuseUnknownRecordType(_ query: QuerySpecification) async throws(RecordStoreError) {
        guard let known = catalogCache.current, known.catalog.recordTypes[query.recordType] == nil,
              try await isStillStored(known) else { return }
        _ = try QueryValidation.check(query, catalog: known.catalog, allowsRelationshipWalks: true)
    }

    /// Runs `body`, one statement carrying the catalog check, outside a transaction (one
    /// statement reads one snapshot); nil when the check failed, after forgetting the catalog.
    private func readInOneStatement<T: Sendable>(_ body: @escaping @Sendable (PostgresSQLConnection) async throws -> T) async throws(RecordStoreError) -> T? {
        do {
            return try await replicas.read(primary: primary, body)
        } catch where PostgresErrorMapping.isStaleCatalog(error) {
            catalogCache.invalidate()
            return nil
        } catch {
            throw storeError(error)
        }
    }

    /// Runs `body` in a write transaction, again from its start when it lost a race.
    func write<T: Sendable>(_ body: @escaping @Sendable (PostgresSQLConnection) async throws -> T) async throws(RecordStoreError) -> T {
        try await write { connection, _ in try await body(connection) }
    }

    /// ``write(_:)`` whose body learns which attempt it is (1 first). A read-only store (on a
    /// standby) refuses it before it reaches the server.
    ///
    /// The transaction registers as a writer of the store right after `BEGIN`
    /// (``PostgresChangePositions``), unless `registersItself`: a save registers in its first
    /// statement, which it needs anyway (``PostgresWriteTransaction``).
    func write<T: Sendable>(
        registersItself: Bool = false, _ body: @escaping @Sendable (PostgresSQLConnection, Int) async throws -> T
    ) async throws(RecordStoreError) -> T {
        try refuseWritesWhenReadOnly()
        var attempt = 0
        while true {
            attempt += 1
            let current = attempt
            do {
                return try await withConnection { connection in
                    try await connection.execute(SQLStatement(sql: "BEGIN"))
                    do {
                        if !registersItself { try await connection.execute(PostgresChangePositions.registrationStatement) }
                        let result = try await body(connection, current)
                        try await connection.execute(SQLStatement(sql: "COMMIT"))
                        self.replicas.noteWrite()
                        return result
                    } catch {
                        try? await connection.execute(SQLStatement(sql: "ROLLBACK"))
                        throw error
                    }
                }
            } catch where PostgresErrorMapping.isRace(error) && attempt < Self.writeAttempts {
                // Back off a little, more each time, so racing writers spread out.
                try? await Task.sleep(for: .milliseconds(Int64.random(in: 1...Int64(5 * attempt))))
                continue
            } catch {
                throw storeError(error)
            }
        }
    }

    // MARK: StorageEngine

    func modify(_ changes: RecordChangeSet, mode: SchemaMode) async throws(RecordStoreError) -> [Record] {
        let executor = self.executor
        let channel = changeChannel
        let outcome = try await write(registersItself: true) { connection, attempt in
            var transaction = PostgresWriteTransaction(
                connection: connection, executor: executor, changeChannel: channel, locksSchemaFirst: attempt > 1)
            return try await SaveProcedure.run(changes, mode: mode, in: &transaction)
        }
        // This process's observers hear the commit before the save returns (read your writes);
        // when none of them wants it, or it was not sent for their zones, there is nothing to wait for.
        if !outcome.changes.isEmpty, changeFeed.isWanted(outcome.changes), changeFeed.observesZones(of: outcome.changes) {
            await changeFeed.waitForDelivery(of: outcome.changes.sequence, upTo: Self.ownNotificationWait)
        }
        return outcome.saved
    }

    func records(for ids: [RecordID]) async throws(RecordStoreError) -> [RecordID: Record] {
        let executor = self.executor
        return try await read { connection in try await executor.records(for: ids, on: connection) }
    }

    func createZone(_ zone: ZoneID) async throws(RecordStoreError) {
        guard !zone.zoneName.isEmpty else { throw .invalidZoneName(zone.zoneName) }
        guard !zone.zoneName.utf8.contains(0) else { throw .invalidZoneName(zone.zoneName) }
        guard zone.zoneName.utf8.count <= PostgresRecordWriter.longestIndexedValue else {
            throw .invalidZoneName("\(zone.zoneName.prefix(40))... (\(zone.zoneName.utf8.count) bytes; a PostgreSQL store takes zone names of at most \(PostgresRecordWriter.longestIndexedValue) bytes)")
        }
        let executor = self.executor
        try await write { connection in try await executor.createZone(zone, on: connection) }
    }

    func zones() async throws(RecordStoreError) -> [ZoneID] {
        let executor = self.executor
        return try await read { connection in try await executor.zones(on: connection) }
    }

    func deleteZone(_ zone: ZoneID) async throws(RecordStoreError) {
        guard zone != .default else { throw .cannotDeleteDefaultZone }
        guard !zone.zoneName.utf8.contains(0) else { throw .zoneNotFound(zone) }
        let executor = self.executor
        let channel = changeChannel
        try await write { connection in
            guard try await executor.zoneExists(zone, on: connection) else { throw RecordStoreError.zoneNotFound(zone) }
            try await PostgresRecordWriter(connection: connection, catalog: executor.catalog(on: connection)).deleteZone(zone)
            try await executor.recordZoneDeletion(zone, date: Date(), on: connection)
            try await PostgresChangeNotifications.notify(
                CommittedChanges(sequence: 0, unlisted: [.init(zone: zone)]), channel: channel, on: connection)
        }
    }

    /// The stored catalog: the kept one when one statement finds it still stored (a round trip,
    /// no decoding), else read in a snapshot.
    func catalog() async throws(RecordStoreError) -> SchemaCatalog {
        if let known = catalogCache.current, try await isStillStored(known) { return known.catalog }
        let executor = self.executor
        return try await read { connection in try await executor.catalog(on: connection) }
    }

    // MARK: History

    func history(of zone: ZoneID, after place: HistoryPosition, limit: Int, recordTypes: Set<String>?) async throws(RecordStoreError) -> HistoryPage {
        guard !zone.zoneName.utf8.contains(0) else { throw .zoneNotFound(zone) }
        let executor = self.executor
        return try await readChanges { connection, bound in
            try await executor.history(
                of: zone, after: place, limit: limit, recordTypes: recordTypes, bound: (bound.position, bound.floor), on: connection)
        }
    }

    func zoneHistory(after place: HistoryPosition, limit: Int) async throws(RecordStoreError) -> ZoneHistoryPage {
        let executor = self.executor
        return try await readChanges { connection, bound in
            try await executor.zoneHistory(after: place, limit: limit, bound: (bound.position, bound.floor), on: connection)
        }
    }

    func pruneHistory(deletedBefore date: Date) async throws(RecordStoreError) -> HistoryPruning {
        let executor = self.executor
        return try await write { connection in try await executor.pruneHistory(deletedBefore: date, on: connection) }
    }

    /// Changes record types' schemas, then fetch request templates, in one transaction: their
    /// columns, their fills, dropped indexes, the indexes of empty tables, and the catalog. The
    /// indexes a populated table gains are marked pending in that transaction and built after
    /// it with `CREATE INDEX CONCURRENTLY`, so writers are not locked out of the table
    /// meanwhile (``PostgresIndexBuilds``); `progress` hears each index built (without it,
    /// each is logged). A build that fails throws ``RecordStoreError/indexBuildPending(recordTypes:reason:)``:
    /// the schema change is committed, and the indexes are built when the store is next opened.
    ///
    /// Indexes are dropped with a plain `DROP INDEX` in the transaction: a drop does no work
    /// proportional to the table, and the transaction already locks the table exclusively
    /// when it adds or drops a column; the catalog and the indexes change together.
    func define(
        _ recordTypes: [RecordTypeSchema], templates: [FetchRequestTemplate], progress: StoreOpeningProgressHandler?
    ) async throws(RecordStoreError) {
        let executor = self.executor
        try await write { connection in
            try await Self.lockSchema(on: connection)
            var catalog = try await executor.catalog(on: connection)
            let storage = PostgresSchemaStorage(connection: connection, buildsPopulatedTablesLater: true)
            var migrationStorage = PostgresMigrationStorage(storage: storage)
            try await SchemaMigrationProcedure.checkAddedConstraints(of: recordTypes, catalog: catalog, storage: &migrationStorage)
            try await storage.define(recordTypes, templates: templates, catalog: &catalog)
            // Relationships may name types of the same batch: checked once all are in.
            try catalog.checkRelationships()
            try await connection.execute(executor.saveCatalogStatement(catalog))
        }
        guard !recordTypes.isEmpty else { return }
        try await buildPendingIndexes(defined: recordTypes.map(\.name), progress: progress)
    }

    /// Migrates the schema in one transaction (``PostgresMigrationStorage``), as ``define(_:templates:progress:)``
    /// defines: the indexes a populated table gains are built after it commits.
    func migrate(_ migration: SchemaMigration, progress: StoreOpeningProgressHandler?) async throws(RecordStoreError) {
        let (executor, channel) = (self.executor, self.changeChannel)
        try await write { connection in
            try await Self.lockSchema(on: connection)
            var catalog = try await executor.catalog(on: connection)
            var storage = PostgresMigrationStorage(storage: PostgresSchemaStorage(connection: connection, buildsPopulatedTablesLater: true))
            try await SchemaMigrationProcedure.run(migration, catalog: &catalog, storage: &storage)
            try await connection.execute(executor.saveCatalogStatement(catalog))
            // Records were renamed and filled in without being listed: every observer reads again.
            try await PostgresChangeNotifications.notify(CommittedChanges(sequence: 0, unlisted: [.everything]), channel: channel, on: connection)
        }
        // Queries planned against the kept catalog would name renamed columns.
        catalogCache.invalidate()
        try await buildPendingIndexes(defined: migration.recordTypes.map(\.target.name), progress: progress)
    }

    /// Builds the indexes a schema change left pending, after it committed; `progress` hears
    /// each (without it, each is logged).
    private func buildPendingIndexes(defined: [String], progress: StoreOpeningProgressHandler?) async throws(RecordStoreError) {
        let logger = self.logger
        do {
            try await withConnection { connection in
                try await Self.buildPendingIndexes(on: connection) { step in
                    if let progress { progress(step) } else { logger.info("\(step.task): \(step.completed)/\(step.total) \(step.unit)") }
                }
            }
        } catch {
            throw await indexBuildPending(storeError(error), defined: defined)
        }
    }

    /// The error of a concurrent index build that failed after a schema change committed: the
    /// record types of the change still marked pending (all of them when the marks cannot be
    /// read), and the build's error.
    private func indexBuildPending(_ failure: RecordStoreError, defined: [String]) async -> RecordStoreError {
        let names = Set(defined)
        let marked = try? await withConnection { connection in
            try await PostgresStoreMetadata(connection: connection).marked(.pending).map(\.recordType)
        }
        let pending = (marked ?? []).filter(names.contains)
        return .indexBuildPending(recordTypes: pending.isEmpty ? defined.sorted() : pending, reason: failure.description)
    }

    /// Starts a bulk load of about `incoming` records into a record type: when the type's table
    /// is missing or holds fewer rows than that, its secondary indexes are dropped until
    /// ``finishBulkLoad(progress:)`` builds them in one pass (``PostgresIndexBuilds``).
    func beginBulkLoad(of recordType: String, incoming: Int) async throws(RecordStoreError) {
        let executor = self.executor
        try await write { connection in
            try await Self.lockSchema(on: connection)
            let table = TableLayout.recordTable(recordType)
            if try await !PostgresSchemaStorage(connection: connection).columns(of: table).isEmpty {
                // Counting stops at `incoming` rows: a small import into a large table reads little.
                var rows = Int64(incoming)
                try await connection.forEachRow(SQLStatement(
                    sql: "SELECT count(*) FROM (SELECT 1 FROM \(PostgresDialect.quote(table)) LIMIT $1) AS counted",
                    arguments: [.integer(Int64(incoming))])) { row in
                    if case .integer(let count) = row.value(at: 0) { rows = count }
                    return false
                }
                guard rows < incoming else { return }
            }
            try await PostgresIndexBuilds(connection: connection).deferIndexes(of: recordType, catalog: executor.catalog(on: connection))
        }
    }

    /// Builds the indexes a bulk load deferred, then runs `ANALYZE` on their tables;
    /// `progress` hears each index as it is built.
    func finishBulkLoad(progress: StoreOpeningProgressHandler?) async throws(RecordStoreError) {
        let executor = self.executor
        try await write { connection in
            try await Self.lockSchema(on: connection)
            try await PostgresIndexBuilds(connection: connection, progress: progress).finishDeferred(catalog: executor.catalog(on: connection))
        }
    }

    func records(_ query: QuerySpecification) async throws(RecordStoreError) -> [Record] {
        try rejectNul(in: query)
        let executor = self.executor
        if let prepared = preparedAgainstKnownCatalog(query), prepared.selectsInOneStatement,
           let records = try await readInOneStatement({ connection in try await executor.records(prepared, on: connection) }) {
            return records
        }
        try await refuseUnknownRecordType(query)
        return try await read { connection in try await executor.records(query, on: connection) }
    }

    func count(_ query: QuerySpecification) async throws(RecordStoreError) -> Int {
        try rejectNul(in: query)
        let executor = self.executor
        if let prepared = preparedAgainstKnownCatalog(query),
           let count = try await readInOneStatement({ connection in try await executor.count(prepared, on: connection) }) {
            return count
        }
        return try await read { connection in try await executor.count(query, on: connection) }
    }

    func aggregate(_ query: QuerySpecification, groupBy: [String], aggregates: [AggregateProperty]) async throws(RecordStoreError) -> [[String: Value]] {
        try rejectNul(in: query)
        let executor = self.executor
        if let prepared = preparedAgainstKnownCatalog(query), prepared.plan.residual == nil,
           let rows = try await readInOneStatement({ connection in
               try await executor.aggregate(prepared, groupBy: groupBy, aggregates: aggregates, on: connection)
           }) {
            return rows
        }
        return try await read { connection in
            try await executor.aggregate(query, groupBy: groupBy, aggregates: aggregates, on: connection)
        }
    }

    /// A zone name with a NUL character names no zone (PostgreSQL's text cannot even hold one).
    private func rejectNul(in query: QuerySpecification) throws(RecordStoreError) {
        if query.zone.zoneName.utf8.contains(0) { throw .zoneNotFound(query.zone) }
    }

    func explain(_ query: QuerySpecification) async throws(RecordStoreError) -> QueryPlan {
        try rejectNul(in: query)
        let executor = self.executor
        let name = self.name
        return try await read { connection in
            try await executor.explain(query, engine: name, on: connection) { statement in
                try await PostgresQueryPlanExplanation(statement: statement, connection: connection).explained
            }
        }
    }

    /// Walks that ``SQLPlanner`` decides exactly run in SQL, through the reference indexes.
    var plansRelationshipWalks: Bool { true }

    func optimize() async throws(RecordStoreError) {
        let executor = self.executor
        try await write { connection in
            let catalog = try await executor.catalog(on: connection)
            var tables = [TableLayout.zonesTable, TableLayout.registryTable]
            var fullTextIndexes: [String] = []
            for schema in catalog.sorted {
                tables.append(TableLayout.recordTable(schema.name))
                for field in schema.fields where field.type.isList {
                    tables.append(PostgresLayout.listTable(schema.name, field: field.name))
                }
                if !schema.searchableFieldNames.isEmpty { fullTextIndexes.append(PostgresLayout.fullTextIndex(schema.name)) }
            }
            for table in tables {
                try await connection.execute(SQLStatement(sql: "ANALYZE \(PostgresDialect.quote(table))"))
            }
            // A GIN index takes new rows into a pending list that every search reads in full
            // until (auto)vacuum merges it: after an import of cities1000, a full-text search
            // read 245 pages instead of 31 and took 2.9 ms instead of 0.02 ms, depending on when
            // autovacuum came by. Merging it here makes the first searches as fast as later ones.
            for index in fullTextIndexes {
                try await connection.execute(SQLStatement(
                    sql: "SELECT gin_clean_pending_list(to_regclass($1)) WHERE to_regclass($1) IS NOT NULL",
                    arguments: [.text(PostgresDialect.quote(index))]))
            }
        }
    }
}

/// Opens PostgreSQL engines for the package's tests and tools that wrap engines.
package enum PostgresEngineOpener {
    /// A PostgreSQL engine at a `postgres://` URL; `poolExecutor` and `progress` as in `PostgresEngine.open`.
    ///
    /// ```swift
    /// let engine = try await PostgresEngineOpener.open(url: url, progress: { print($0) })
    /// ```
    package static func open(
        url: String, poolExecutor: (any TaskExecutor)? = nil, progress: StoreOpeningProgressHandler? = nil
    ) async throws(RecordStoreError) -> any StorageEngine {
        try await PostgresEngine.open(PostgresLocation(url), poolExecutor: poolExecutor, progress: progress)
    }
}


/// The engine as its change source reads records through it, held weakly (the engine owns the
/// source through its feed).
private final class RecordReaderBox: @unchecked Sendable {
    // Written once, in the engine's initializer, before the source can run.
    weak var engine: PostgresEngine?
}
#endif
