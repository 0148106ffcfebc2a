// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
@_spi(StorageEngine) import RecordStoreCore
import RecordStoreSQL

/// Brings a store written by an earlier version of the engine to the current layout when it is
/// opened, and records its version in `$metadata` (`layoutVersion`; a store without one is
/// version 0). Each step runs once, in the transaction that opens the store:
///
/// - 1: record tables and the registry store the default zone as the empty string
///   (``TableLayout/zoneKey(_:)``), no longer by its name.
/// - 2: the B-trees no sort reads hold `(zone, column)` without the record name, so that
///   PostgreSQL deduplicates them, and location indexes are SP-GiST
///   (``PostgresSchemaStorage/secondaryIndexes(_:)``). The indexes defined anew
///   (``PostgresSchemaStorage/SecondaryIndex/definedInLayout``) are dropped and their types
///   marked pending: they are built again with `CREATE INDEX CONCURRENTLY` once the opening
///   committed (``PostgresIndexBuilds/buildPending(executor:)``), or at the end of a bulk load
///   the store was cut off in. Queries stay exact meanwhile: they read the tables.
///
/// A store of a later version than this engine's is opened as it is: its layout answers the
/// same queries.
///
/// ```swift
/// try await PostgresLayoutMigration(connection: connection).migrate(catalog: catalog)
/// ```
struct PostgresLayoutMigration {
    let connection: PostgresSQLConnection

    /// The layout this version of the engine writes.
    static let currentVersion: Int64 = 2

    private var metadata: PostgresStoreMetadata { PostgresStoreMetadata(connection: connection) }

    /// The store's layout version: 0 when it has none.
    func storedVersion() async throws -> Int64 {
        try await metadata.value(named: "layoutVersion").flatMap { Int64(String(decoding: $0, as: UTF8.self)) } ?? 0
    }

    /// Runs the steps the store has not had, then records the current version.
    func migrate(catalog: SchemaCatalog) async throws {
        let stored = try await storedVersion()
        guard stored < Self.currentVersion else { return }
        if stored < 1 { try await storeDefaultZoneAsKey(catalog) }
        // Layouts 0 and 1 define the same indexes.
        try await redefineIndexes(catalog, after: max(stored, 1))
        try await metadata.setValue(Data(String(Self.currentVersion).utf8), named: "layoutVersion")
    }

    /// Step 1: the default zone's rows hold its key.
    private func storeDefaultZoneAsKey(_ catalog: SchemaCatalog) async throws {
        let arguments: [SQLValue] = [.text(TableLayout.zoneKey(.default)), .text(ZoneID.default.zoneName)]
        let zone = PostgresDialect.quote(TableLayout.zoneColumn)
        for schema in catalog.sorted {
            try await connection.execute(SQLStatement(
                sql: "UPDATE \(PostgresDialect.quote(TableLayout.recordTable(schema.name))) SET \(zone) = $1 WHERE \(zone) = $2", arguments: arguments))
        }
        try await connection.execute(SQLStatement(
            sql: "UPDATE \(PostgresDialect.quote(TableLayout.registryTable)) SET zone = $1 WHERE zone = $2", arguments: arguments))
    }

    /// Drops the indexes a later layout defines anew than `version` had them, and marks their
    /// record types pending.
    private func redefineIndexes(_ catalog: SchemaCatalog, after version: Int64) async throws {
        let storage = PostgresSchemaStorage(connection: connection)
        for schema in catalog.sorted {
            var dropped = false
            for index in PostgresSchemaStorage.secondaryIndexes(schema) where index.definedInLayout > version {
                guard try await storage.state(of: index) != .missing else { continue }
                try await connection.execute(SQLStatement(sql: "DROP INDEX \(PostgresDialect.quote(index.name))"))
                dropped = true
            }
            if dropped { try await metadata.mark(.pending, schema.name) }
        }
    }
}
#endif
