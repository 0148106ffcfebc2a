// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
@_spi(StorageEngine) import RecordStoreCore
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreSQL

/// The catalog an engine plans its queries against without reading it first, and the check
/// that keeps this exact.
///
/// The stored catalog has a generation (`$schema.generation`, a new number from a sequence each
/// time a transaction changes the catalog: a trigger sets it). A query planned against the
/// cached catalog carries a condition, ``check(zone:)``, that PostgreSQL evaluates once, in the
/// query's own snapshot, before it reads a row: the function `"$catalogIsCurrent"` raises
/// SQLSTATE `QS001` unless the stored generation is the cached one and the zone exists. The
/// engine then reads the catalog again in a transaction and runs the query the long way. So a
/// read is one statement and one round trip, and it never sees rows through an older catalog
/// than the one stored with them.
///
/// ```swift
/// if let known = cache.current {
///     var prepared = try PreparedQuery(query, catalog: known.catalog, zoneExists: true, dialect: dialect)
///     prepared.catalogCheck = known.check(zone: query.zone)
/// }
/// ```
final class PostgresCatalogCache: Sendable {
    /// A catalog and the generation it was stored with.
    struct Known: Sendable {
        let generation: Int64
        let catalog: SchemaCatalog

        /// The condition that fails the statement (SQLSTATE `QS001`) unless this catalog is still
        /// the stored one and the zone exists.
        func check(zone: ZoneID) -> SQLCondition {
            .exact("\(PostgresCatalogCache.checkFunction)(?, ?)", [.integer(generation), .text(zone.zoneName)])
        }
    }

    /// The SQLSTATE the check raises.
    static let staleState = "QS001"
    /// The check function's quoted name.
    static let checkFunction = PostgresDialect.quote("$catalogIsCurrent")

    private let state = LockedState<Known?>(nil)

    /// The catalog last read, or nil before the first read and after a failed check.
    var current: Known? { state.withLock { $0 } }

    /// Forgets the catalog (a check failed: it changed, or a zone was deleted).
    func invalidate() { state.withLock { $0 = nil } }

    /// Reads the stored catalog and its generation in the connection's transaction and keeps them.
    func refresh(on connection: PostgresSQLConnection, executor: SQLExecutor) async throws {
        let schemaTable = PostgresDialect.quote(TableLayout.schemaTable)
        let row = try await connection.firstRow(SQLStatement(sql: "SELECT generation, catalog FROM \(schemaTable) WHERE id = 1")) { row in
            (row.value(at: 0), row.value(at: 1))
        }
        guard let (generation, stored) = row, case .integer(let number) = generation else { return }
        let known = Known(generation: number, catalog: try executor.catalog(from: stored))
        state.withLock { $0 = known }
    }

    /// The statements that create the generation, its trigger and the check function (run at
    /// every open, under the store's lock; each replaces what an older version made).
    static var setupStatements: [String] {
        let schemaTable = PostgresDialect.quote(TableLayout.schemaTable)
        let zonesTable = PostgresDialect.quote(TableLayout.zonesTable)
        let sequence = PostgresDialect.quote("$catalogGenerations")
        let nextGeneration = PostgresDialect.quote("$nextCatalogGeneration")
        return [
            "CREATE SEQUENCE IF NOT EXISTS \(sequence)",
            "ALTER TABLE \(schemaTable) ADD COLUMN IF NOT EXISTS generation bigint NOT NULL DEFAULT nextval('\(sequence)')",
            """
            CREATE OR REPLACE FUNCTION \(nextGeneration)() RETURNS trigger LANGUAGE plpgsql AS $body$
            BEGIN NEW.generation := nextval('\(sequence)'); RETURN NEW; END
            $body$
            """,
            "CREATE OR REPLACE TRIGGER \(PostgresDialect.quote("$catalogGeneration")) BEFORE UPDATE ON \(schemaTable) FOR EACH ROW EXECUTE FUNCTION \(nextGeneration)()",
            """
            CREATE OR REPLACE FUNCTION \(checkFunction)(expected bigint, zone text) RETURNS boolean LANGUAGE plpgsql STABLE AS $body$
            BEGIN
                IF NOT EXISTS (SELECT 1 FROM \(schemaTable) WHERE id = 1 AND generation = expected)
                    OR NOT EXISTS (SELECT 1 FROM \(zonesTable) WHERE name = zone) THEN
                    RAISE EXCEPTION 'the catalog or the zone changed since the query was planned' USING ERRCODE = '\(staleState)';
                END IF;
                RETURN true;
            END
            $body$
            """,
        ]
    }
}
#endif
