// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// A PostgreSQL write transaction as ``SaveProcedure`` uses it. The engine opened it (`BEGIN`,
/// read committed) on one leased connection and commits when the procedure returns.
///
/// Schema changes take the store's schema lock first and check that the catalog is still the
/// one the save read; when another process changed it meanwhile, the save runs again
/// (``PostgresWriteRace``) on the new catalog.
///
/// Its first statement registers it as a writer of the store (``PostgresChangePositions``: a
/// shared lock, which keeps no other writer waiting) as it reads the catalog and the registry
/// of the save's records, before any write.
/// Its change position is its transaction's ID plus the store's base, taken without a lock:
/// last, after the writes, by a save of fewer than ``PostgresRecordWriter/fewestRecordsToCopy``
/// records without schema changes, in the one statement that also records the history and
/// notifies the commit (``PostgresCommitStatement``); first by a bulk save or one that changes
/// the schema (its new records' registry rows are then written once, with it).
struct PostgresWriteTransaction: SQLWriteTransaction {
    let connection: PostgresSQLConnection
    let executor: SQLExecutor
    /// The channel the commit's changes are notified on.
    let changeChannel: String
    /// Whether to take the schema lock before reading the catalog: a save that lost a race to a
    /// schema change runs again so, and then cannot lose it again.
    let locksSchemaFirst: Bool
    private var catalogRead: SchemaCatalog?
    /// Whether the writes were applied.
    private var applied = false
    /// Whether the change position is taken after the writes, by the statement that records the
    /// history (``PostgresCommitStatement``): the new records, registered at 0, are given it there.
    private var positionTakenAfterWrites = false
    /// The commit's sequence, once that statement sent its notification.
    private var notifiedSequence: Int64?
    /// The zones whose existence the stored versions' read checked (by name): whether each exists.
    private var zonesChecked: [String: Bool] = [:]
    /// What the registry said of the save's records, read with the catalog
    /// (``readCatalog(beforeReadingVersionsOf:)``), until ``storedVersions(of:)`` of them takes it.
    private var registryReadFirst: (ids: [RecordID], zones: Set<String>, registry: PostgresRecordWriter.RegistryRead)?

    init(connection: PostgresSQLConnection, executor: SQLExecutor, changeChannel: String, locksSchemaFirst: Bool = false) {
        self.connection = connection
        self.executor = executor
        self.changeChannel = changeChannel
        self.locksSchemaFirst = locksSchemaFirst
    }

    mutating func readCatalog() async throws -> SchemaCatalog {
        let catalog: SchemaCatalog
        if locksSchemaFirst {
            try await connection.execute(PostgresChangePositions.registrationStatement)
            try await PostgresEngine.lockSchema(on: connection)
            catalog = try await executor.catalog(on: connection)
        } else {
            // Registered and read in one round trip.
            let statement = SQLStatement(sql: "SELECT \(PostgresChangePositions.registration), (\(executor.catalogStatement.sql))")
            catalog = try executor.catalog(from: try await connection.firstRow(statement) { $0.value(at: 1) } ?? .null)
        }
        catalogRead = catalog
        return catalog
    }

    /// Registers the writer and reads the catalog, and with them the registry of the records
    /// the save reads next and whether their zones exist: one round trip where there were two.
    /// The statement's first row is `(NULL, NULL, catalog)`, the registry's rows follow
    /// (``PostgresRecordWriter/RegistryRead``). A save that runs again after losing a race to a
    /// schema change (it locks the schema first), or names more records than one registry
    /// statement reads, reads them apart.
    mutating func readCatalog(beforeReadingVersionsOf ids: [RecordID]) async throws -> SchemaCatalog {
        guard !locksSchemaFirst, !ids.isEmpty, ids.count <= PostgresRecordWriter.registryChunk else { return try await readCatalog() }
        let zones = Self.zonesToCheck(of: ids)
        let registryStatement = PostgresRecordWriter.RegistryRead.statement(of: ids, checkingZones: zones)
        // Materialized: the registration runs once, whatever the planner makes of the rest.
        let statement = SQLStatement(
            sql: "WITH registration AS MATERIALIZED (SELECT \(PostgresChangePositions.registration), (\(executor.catalogStatement.sql)) AS catalog) "
                + "SELECT NULL, NULL, catalog FROM registration UNION ALL \(registryStatement.sql)",
            arguments: registryStatement.arguments)
        var registry = PostgresRecordWriter.RegistryRead()
        var storedCatalog = SQLValue.null
        try await connection.forEachRow(statement) { row in
            if case .null = row.value(at: 0) {
                storedCatalog = row.value(at: 2)
            } else {
                registry.take(row.value(at: 0), row.value(at: 1), row.value(at: 2))
            }
            return true
        }
        let catalog = try executor.catalog(from: storedCatalog)
        catalogRead = catalog
        registryReadFirst = (ids, zones, registry)
        return catalog
    }

    /// The stored versions, read with whether their zones exist (other than the default zone,
    /// which always does): ``existingZones(among:)`` then asks nothing of the zones a save's
    /// records are in. The registry of the save's own records was read with the catalog; only
    /// their rows are read here.
    mutating func storedVersions(of ids: [RecordID]) async throws -> [RecordID: StoredVersion] {
        let writer = PostgresRecordWriter(connection: connection, catalog: catalogRead ?? SchemaCatalog())
        let zones: Set<String>
        let read: (versions: [RecordID: StoredVersion], existingZones: Set<String>)
        if let first = registryReadFirst, first.ids == ids {
            registryReadFirst = nil
            zones = first.zones
            read = (try await writer.storedVersions(of: first.registry), first.registry.existingZones)
        } else {
            zones = Self.zonesToCheck(of: ids)
            read = try await writer.storedVersions(of: ids, checkingZones: zones)
        }
        for zone in zones { zonesChecked[zone] = read.existingZones.contains(zone) }
        return read.versions
    }

    /// The zones of these records whose existence a save checks: all but the default zone,
    /// which always exists.
    private static func zonesToCheck(of ids: [RecordID]) -> Set<String> {
        Set(ids.map(\.zoneID.zoneName)).subtracting([ZoneID.default.zoneName])
    }

    /// Which of these zones exist: from the stored versions' read when it checked them all (in
    /// this transaction, so nothing changed them since), else read.
    func existingZones(among zones: Set<ZoneID>) async throws -> Set<ZoneID> {
        guard zones.allSatisfy({ zonesChecked[$0.zoneName] != nil }) else {
            return try await executor.existingZones(among: zones, on: connection)
        }
        return zones.filter { zonesChecked[$0.zoneName] == true }
    }

    func applySchemaChanges(_ changes: [SchemaChange], catalog: SchemaCatalog) async throws {
        try await PostgresEngine.lockSchema(on: connection)
        guard try await executor.catalog(on: connection) == catalogRead else {
            throw PostgresWriteRace(reason: "the schema changed while a save was adding to it")
        }
        try await PostgresSchemaStorage(connection: connection).apply(changes, catalog: catalog)
        try await connection.execute(executor.saveCatalogStatement(catalog))
    }

    /// Takes the change position (``PostgresChangePositions``). After the writes, it is left to
    /// ``recordHistory(_:at:date:)``, whose one statement takes it (the 0 returned is not used).
    mutating func nextChangePosition() async throws -> Int64 {
        positionTakenAfterWrites = applied
        if positionTakenAfterWrites { return 0 }
        return try await executor.nextChangePosition(on: connection)
    }

    func takesChangePositionLast(_ plan: WritePlan, schemaChanges: [SchemaChange]) -> Bool {
        !locksSchemaFirst && schemaChanges.isEmpty && plan.writes.count < PostgresRecordWriter.fewestRecordsToCopy
    }

    mutating func apply(_ plan: WritePlan, catalog: SchemaCatalog) async throws {
        try await PostgresRecordWriter(connection: connection, catalog: catalog).apply(plan)
        applied = true
    }

    mutating func recordHistory(_ changes: CommittedChanges, at position: Int64, date: Date) async throws {
        guard positionTakenAfterWrites else {
            try await executor.recordHistory(changes, at: position, date: date, on: connection)
            return
        }
        notifiedSequence = try await PostgresCommitStatement(changes, date: date, channel: changeChannel).run(on: connection).sequence
    }

    /// Notifies the commit's changes (delivered when it commits); the transaction ID is its
    /// sequence, read by listeners from the notification. A save whose history statement
    /// notified already returns its sequence.
    func logCommit(_ changes: CommittedChanges) async throws -> Int64 {
        if let notifiedSequence { return notifiedSequence }
        guard !positionTakenAfterWrites else {
            // Its position is taken by the history statement: a commit without one has none.
            throw RecordStoreError.storage("a save's commit was logged before its history was recorded")
        }
        return try await PostgresChangeNotifications.notify(changes, channel: changeChannel, on: connection)
    }
}
#endif
