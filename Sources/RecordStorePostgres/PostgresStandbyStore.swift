// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// A store opened on a hot standby (a server in recovery, `pg_is_in_recovery()`): read-only.
///
/// Opening on a standby writes nothing: it checks, in one read-only snapshot, that the store's
/// tables are there (replicated from the primary, where the store was made), that the primary
/// already brought them to this engine's layout, sort keys and spelling columns (an opening on
/// the primary does), and reads the store's identifier and cursor key. Cursors and change
/// tokens are the primary's: one made through either continues through the other.
///
/// Then the store answers reads (lookups, queries, counts, aggregates, explanations, change
/// histories, backups) from the standby, and refuses:
///
/// - every write (saves and deletes, zones, schemas and migrations, bulk loads, `optimize`,
///   history pruning, assets, removing a sibling store) with
///   ``RecordStoreError/readOnlyStore(server:reason:)``, before it reaches the server (a sibling
///   store opens read-only too, when it exists on the standby);
/// - live observation (`Store.observe`), with the same error from the observation's first
///   element: the store hears other clients' commits with `LISTEN`, which a standby does not run.
///
/// The store stays read-only for its life, also when its standby is promoted meanwhile: open it
/// again to write. A URL that asks for a writable server (`target_session_attrs=read-write`)
/// never opens on a standby, nor does one with `replica` parameters (its reads go to the
/// standby itself).
///
/// ```swift
/// // standby.internal streams from the primary where the store was made:
/// let store = try await Store.open(url: "postgres://app:secret@standby.internal/cities")
/// let big = try await store.count(ofType: "City", matching: FormatPredicate(format: "population > 1000000"))
/// try await store.save([city])   // RecordStoreError.readOnlyStore: write through the primary
/// ```
enum PostgresStandbyStore {
    /// Checks that the store can be read on the standby `location` names, through `connection`
    /// (in a read-only snapshot), and reads its secret; throws
    /// ``RecordStoreError/serverUnavailable(server:reason:)`` when the URL asks for a writable
    /// server or the store does not exist there, ``RecordStoreError/invalidStoreLocation(_:reason:)``
    /// for `replica` parameters, and ``RecordStoreError/readOnlyStore(server:reason:)`` when the
    /// store needs an update of its layout that only the primary can make.
    static func open(on connection: PostgresSQLConnection, location: PostgresLocation) async throws -> StoreSecret {
        let server = location.server
        guard !location.requiresWritableServer else {
            throw RecordStoreError.serverUnavailable(
                server: server,
                reason: "the server is a standby, read-only, and the URL asks for a writable one (target_session_attrs=read-write): "
                    + "open the store on the primary")
        }
        guard location.replicas.isEmpty else {
            throw RecordStoreError.invalidStoreLocation(
                location.description,
                reason: "the server is a standby: a store opened on it reads there, read-only, and takes no replica parameter; "
                    + "open the store on the primary to read from its replicas")
        }
        try await connection.execute(SQLStatement(sql: "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"))
        do {
            let secret = try await checkedSecret(on: connection, location: location)
            try await connection.execute(SQLStatement(sql: "COMMIT"))
            return secret
        } catch {
            try? await connection.execute(SQLStatement(sql: "ROLLBACK"))
            throw error
        }
    }

    /// The checks of ``open(on:location:)`` in the snapshot under way, and the secret.
    private static func checkedSecret(on connection: PostgresSQLConnection, location: PostgresLocation) async throws -> StoreSecret {
        let server = location.server
        let schema = location.schema ?? "public"
        let missing = RecordStoreError.serverUnavailable(
            server: server,
            reason: "the server is a standby, read-only, and the store (schema \(schema)) does not exist on it: make it by opening "
                + "it on the primary; once the standby has replayed that, the store opens here, read-only")
        let tables = [PostgresLayout.metadataTable, TableLayout.schemaTable, TableLayout.zonesTable, TableLayout.registryTable]
        // Each name as the search path (the store's schema) finds it.
        let checks = tables.indices.map { "to_regclass($\($0 + 1)) IS NOT NULL" }.joined(separator: " AND ")
        let found = try await connection.firstRow(SQLStatement(
            sql: "SELECT \(checks)", arguments: tables.map { .text(PostgresDialect.quote($0)) })) { $0.value(at: 0) }
        guard found == .integer(1) else { throw missing }
        let metadata = PostgresStoreMetadata(connection: connection)
        guard let secret = try await metadata.storedSecret() else { throw missing }

        func outdated(_ what: String) -> RecordStoreError {
            .readOnlyStore(
                server: server,
                reason: "the server is a standby, and the store needs an update only the primary can make (\(what)): open it once on "
                    + "the primary with this version, then here again")
        }
        let layout = try await PostgresLayoutMigration(connection: connection).storedVersion()
        guard layout >= PostgresLayoutMigration.currentVersion else {
            throw outdated("its layout is version \(layout), this engine reads version \(PostgresLayoutMigration.currentVersion)")
        }
        let collation = try await metadata.collationVersion()
        guard collation == UnicodeCollation.version else {
            throw outdated("its sort keys were made with ICU collation \(collation ?? "of an unknown version"), this process uses \(UnicodeCollation.version)")
        }
        let catalog = try await SQLExecutor(dialect: PostgresDialect()).catalog(on: connection)
        if let (table, column) = try await PostgresSchemaStorage(connection: connection).missingSpellingColumns(catalog).first {
            throw outdated("the table \(table) lacks its column \(column)")
        }
        return secret
    }

    /// The refusal of a write through a store opened on the standby `server`.
    static func writeRefusal(server: String) -> RecordStoreError {
        .readOnlyStore(
            server: server,
            reason: "it was opened on a standby (a server in recovery), which takes no writes: write through a store opened on the primary")
    }

    /// The refusal of a live observation through a store opened on the standby `server`.
    static func observationRefusal(server: String) -> RecordStoreError {
        .readOnlyStore(
            server: server,
            reason: "it was opened on a standby (a server in recovery), where a live query cannot hear other clients' commits "
                + "(LISTEN does not run during recovery): observe through a store opened on the primary")
    }
}
#endif
