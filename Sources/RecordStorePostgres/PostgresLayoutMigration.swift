// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

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
/// - 3: the full-text words are a `tsvector` (``PostgresFullText``), the `[cd]` indexes are on
///   `COALESCE("name$cd", "name$c")` (``PostgresLayout/foldedExpression(_:field:alias:)``), and
///   the SP-GiST indexes and the B-trees by record name fill their pages, and the registry's
///   index by position is `(zone, position)` (built again in the opening). The GIN, `[cd]` and
///   SP-GiST indexes are dropped and built again as in step 2; the `$fullText` column is
///   converted in place (`ALTER COLUMN ... TYPE tsvector`, which rewrites the table while the
///   opening holds it). A stored word longer than a `tsvector` holds (2,047 bytes; the index
///   took 2,600) is left out, as the writer leaves it out: a query for it reads the records.
///   Rows written before keep `name$cd` and their locations' text, which read as before.
/// - 4: record tables have the creator and last modifier columns (``TableLayout/creatorColumn``,
///   ``TableLayout/lastModifierColumn``), added null (no table is rewritten): no record saved
///   before named its author.
/// - 5: the listeners' rows name the zones they listen for (``PostgresLayout/listenersTableDefinition``;
///   a row without them listens for every zone).
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
    static let currentVersion: Int64 = 5

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
        if stored < 3 {
            // After the GIN indexes on the old column type were dropped.
            try await storeFullTextAsVectors(catalog)
            try await fillRecordNameIndexPages(catalog)
            try await redefineRegistryPositionIndex()
        }
        if stored < 4 { try await addAuthorColumns(catalog) }
        if stored < 5 { try await addListenedZones() }
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

    /// Step 4: the creator and last modifier columns of every record table, null (adding a
    /// nullable column without a default rewrites nothing).
    private func addAuthorColumns(_ catalog: SchemaCatalog) async throws {
        for schema in catalog.sorted {
            let table = PostgresDialect.quote(TableLayout.recordTable(schema.name))
            try await connection.execute(SQLStatement(sql: """
                ALTER TABLE IF EXISTS \(table) ADD COLUMN IF NOT EXISTS \(PostgresDialect.quote(TableLayout.creatorColumn)) text COLLATE "C",
                    ADD COLUMN IF NOT EXISTS \(PostgresDialect.quote(TableLayout.lastModifierColumn)) text COLLATE "C"
                """))
        }
    }

    /// Step 5: the zones a listener listens for.
    private func addListenedZones() async throws {
        try await connection.execute(SQLStatement(sql: """
            ALTER TABLE \(PostgresDialect.quote(PostgresLayout.listenersTable)) ADD COLUMN IF NOT EXISTS zones text[] COLLATE "C",
                ADD COLUMN IF NOT EXISTS prefixes text[] COLLATE "C" NOT NULL DEFAULT '{}'
            """))
    }

    /// Step 3: each `text[]` of full-text words becomes a `tsvector`.
    private func storeFullTextAsVectors(_ catalog: SchemaCatalog) async throws {
        let column = PostgresDialect.quote(PostgresLayout.fullTextColumn)
        for schema in catalog.sorted {
            let table = PostgresDialect.quote(TableLayout.recordTable(schema.name))
            var type: String?
            try await connection.forEachRow(SQLStatement(
                sql: "SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = $2 AND NOT attisdropped",
                arguments: [.text(table), .text(PostgresLayout.fullTextColumn)])) { row in
                if case .text(let name) = row.value(at: 0) { type = name }
                return false
            }
            guard type == "text[]" else { continue }
            // A conversion's expression takes no subquery: the words a tsvector cannot hold go first.
            let isHeld = "octet_length(word) BETWEEN 1 AND \(PostgresFullText.longestWord)"
            try await connection.execute(SQLStatement(sql: """
                UPDATE \(table) SET \(column) = ARRAY(SELECT word FROM unnest(\(column)) AS word WHERE \(isHeld))
                    WHERE EXISTS (SELECT 1 FROM unnest(\(column)) AS word WHERE NOT (\(isHeld)))
                """))
            try await connection.execute(SQLStatement(sql: """
                ALTER TABLE \(table) ALTER COLUMN \(column) DROP DEFAULT,
                    ALTER COLUMN \(column) TYPE tsvector USING array_to_tsvector(\(column)),
                    ALTER COLUMN \(column) SET DEFAULT ''
                """))
        }
    }

    /// Step 3: the registry's index by position without the record name
    /// (``PostgresSchemaStorage/registryPositionIndex``), built again in the opening.
    private func redefineRegistryPositionIndex() async throws {
        try await connection.execute(SQLStatement(sql: "DROP INDEX IF EXISTS \(PostgresDialect.quote(TableLayout.registryTable + "$position"))"))
        try await connection.execute(SQLStatement(sql: PostgresSchemaStorage.registryPositionIndex))
    }

    /// Step 3: the B-trees by record name (each type's primary key and `(zone, record name)`
    /// index, the registry's) fill their pages when next built (``PostgresIndexBuilds``).
    private func fillRecordNameIndexPages(_ catalog: SchemaCatalog) async throws {
        var tables = catalog.sorted.map { TableLayout.recordTable($0.name) }
        tables.append(TableLayout.registryTable)
        for table in tables {
            var indexes: [String] = []
            try await connection.forEachRow(SQLStatement(
                sql: "SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid = to_regclass($1) AND (indisunique OR indisprimary)",
                arguments: [.text(PostgresDialect.quote(table))])) { row in
                if case .text(let name) = row.value(at: 0) { indexes.append(name) }
                return true
            }
            // regclass::text is the name as SQL spells it, quoted where it needs to be.
            for index in indexes { try await connection.execute(SQLStatement(sql: "ALTER INDEX IF EXISTS \(index) SET (fillfactor = 100)")) }
        }
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
