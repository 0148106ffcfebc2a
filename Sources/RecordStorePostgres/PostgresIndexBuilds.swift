// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
import Logging
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Index builds that do not run row by row, nor inside the schema change that asks for them.
///
/// - A bulk load into a new or small record type drops the type's secondary indexes
///   (``PostgresSchemaStorage/secondaryIndexes(_:)``) and marks them deferred, in one
///   transaction; schema changes during the load build none of them; the load's end builds
///   each in one sorted pass, builds again the B-trees by record name the load filled row by
///   row, and runs `ANALYZE`. Incrementally built B-trees are also ~40% larger than those
///   built at once.
/// - A schema change on a populated table marks the indexes it asks for pending, in its
///   transaction; once it committed, they are built with `CREATE INDEX CONCURRENTLY`, which
///   does not lock writers out of the table. An invalid index (a concurrent build that failed
///   or was cut off) is dropped and built again.
///
/// Marks live in `$metadata` (``PostgresStoreMetadata/IndexBuild``): a build cut off by a
/// process that died is finished when the store is next opened. Queries stay exact while
/// indexes wait: they read the table instead.
///
/// ```swift
/// try await PostgresIndexBuilds(connection: connection).deferIndexes(of: "City", catalog: catalog)
/// // ... batches ...
/// try await PostgresIndexBuilds(connection: connection, progress: progress).finishDeferred(catalog: catalog)
/// ```
struct PostgresIndexBuilds {
    let connection: PostgresSQLConnection
    /// Hears each index as it is built.
    var progress: StoreOpeningProgressHandler?

    private var metadata: PostgresStoreMetadata { PostgresStoreMetadata(connection: connection) }
    private var storage: PostgresSchemaStorage { PostgresSchemaStorage(connection: connection) }

    /// Marks a record type's indexes deferred and drops those its table has (run in the
    /// transaction that starts a bulk load).
    func deferIndexes(of recordType: String, catalog: SchemaCatalog) async throws {
        try await metadata.mark(.deferred, recordType)
        guard let schema = catalog.recordTypes[recordType] else { return }
        for index in PostgresSchemaStorage.secondaryIndexes(schema) {
            try await connection.execute(SQLStatement(sql: "DROP INDEX IF EXISTS \(PostgresDialect.quote(index.name))"))
        }
    }

    /// Builds the indexes of every record type marked deferred, clears the marks, and
    /// measures the tables for the planner (run in a transaction holding the schema lock).
    func finishDeferred(catalog: SchemaCatalog) async throws {
        for (recordType, _) in try await metadata.marked(.deferred) {
            if let schema = catalog.recordTypes[recordType], try await !storage.columns(of: TableLayout.recordTable(recordType)).isEmpty {
                try await storage.buildIndexes(schema, concurrently: false, progress: progress)
                try await rebuildRecordNameIndexes(of: recordType)
                for table in [TableLayout.recordTable(recordType)] + schema.fields.filter(\.type.isList).map({ PostgresLayout.listTable(recordType, field: $0.name) }) {
                    try await connection.execute(SQLStatement(sql: "ANALYZE \(PostgresDialect.quote(table))"))
                }
            }
            try await metadata.clear(.deferred, recordType)
        }
    }

    /// Builds again, in one sorted pass, the B-trees by record name a load filled row by row:
    /// the type's unique `(zone, record name)` index and, when the type holds at least half of
    /// the store's records (the load was most of them), the registry's. Record names arrive in
    /// no order of theirs (`"12"`, `"38"`, `"1000"`), so every page of these indexes split half
    /// full: rebuilt, cities1000's take 5.2 MB each instead of 8.6.
    private func rebuildRecordNameIndexes(of recordType: String) async throws {
        let table = PostgresDialect.quote(TableLayout.recordTable(recordType))
        var uniqueIndexes: [String] = []
        try await connection.forEachRow(SQLStatement(
            sql: "SELECT conindid::regclass::text FROM pg_constraint WHERE conrelid = to_regclass($1) AND contype = 'u'",
            arguments: [.text(table)])) { row in
            if case .text(let name) = row.value(at: 0) { uniqueIndexes.append(name) }
            return true
        }
        // regclass::text is the name as SQL spells it, quoted where it needs to be.
        for index in uniqueIndexes { try await connection.execute(SQLStatement(sql: "REINDEX INDEX \(index)")) }
        var counts: [Int64] = []
        try await connection.forEachRow(SQLStatement(
            sql: "SELECT (SELECT count(*) FROM \(table)), (SELECT count(*) FROM \(PostgresDialect.quote(TableLayout.registryTable)))")) { row in
            for column in 0..<2 { if case .integer(let count) = row.value(at: column) { counts.append(count) } }
            return false
        }
        if counts.count == 2, counts[0] * 2 >= counts[1] {
            try await connection.execute(SQLStatement(sql: "REINDEX TABLE \(PostgresDialect.quote(TableLayout.registryTable))"))
        }
    }

    /// Builds the indexes of every record type marked pending with `CREATE INDEX
    /// CONCURRENTLY`, outside any transaction, and clears each mark unless a schema change
    /// marked the type again meanwhile (then its indexes are looked at again). One builder at a
    /// time per store: when another connection builds, this one returns at once and leaves it
    /// the marks. A type whose indexes a bulk load defers is left to the load's end.
    func buildPending(executor: SQLExecutor) async throws {
        let key = "hashtextextended('query-store-indexes:' || current_database() || ':' || current_schema(), 0)"
        guard try await connection.rowCount(SQLStatement(sql: "SELECT 1 WHERE pg_try_advisory_lock(\(key))")) > 0 else { return }
        do {
            while true {
                let marks = try await metadata.marked(.pending)
                if marks.isEmpty { break }
                let catalog = try await executor.catalog(on: connection)
                for (recordType, token) in marks {
                    if let schema = catalog.recordTypes[recordType], try await metadata.indexBuild(.deferred, of: recordType) == nil,
                       try await !storage.columns(of: TableLayout.recordTable(recordType)).isEmpty {
                        try await storage.buildIndexes(schema, concurrently: true, progress: progress)
                    }
                    try await metadata.clear(.pending, recordType, token: token)
                }
            }
        } catch {
            try? await connection.execute(SQLStatement(sql: "SELECT pg_advisory_unlock(\(key))"))
            throw error
        }
        try await connection.execute(SQLStatement(sql: "SELECT pg_advisory_unlock(\(key))"))
    }
}
#endif
