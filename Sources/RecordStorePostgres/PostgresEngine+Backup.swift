// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Backups of a PostgreSQL store without `pg_dump`: one `REPEATABLE READ, READ ONLY`
/// transaction reads every table of the store's schema (assets included: they are rows of
/// `$assets` and `$asset_chunks`) a batch at a time through a cursor, and the schema's
/// sequences (``PostgresBackupTables``). A restore drops the store's tables, opens the store
/// again (its base tables), defines the backup's record types (their tables and indexes, as
/// the engine makes them), then fills every table and sets every sequence, in one transaction.
///
/// ```swift
/// let position = try await engine.writeBackup(into: "/backups/nightly")
/// ```
extension PostgresEngine: BackupCapableEngine {
    /// Returns the backup's change position: the bound of its snapshot (``PostgresChangePositions``),
    /// under which it holds every commit. With read replicas, it reads a replica that has caught
    /// up with the primary's bound (``PostgresEngine/readChanges(runsOnce:_:)``), once: a replica
    /// failing meanwhile fails the backup, which removes what it wrote.
    func writeBackup(into folder: String) async throws(RecordStoreError) -> Int64 {
        try await readChanges(runsOnce: true) { connection, bound in
            try await Self.backUp(on: connection, into: folder, position: bound.position)
            return bound.position
        }
    }

    /// Writes every table and sequence of the current schema, in the caller's snapshot, and the
    /// snapshot's change position.
    private static func backUp(on connection: PostgresSQLConnection, into folder: String, position: Int64) async throws {
        let quote = PostgresDialect.quote
        var list = PostgresBackupTables()
        list.changePosition = position
        for (index, name) in try await relations(of: "'r', 'p'", on: connection).enumerated() {
            var columns: [String] = []
            try await connection.forEachRow(SQLStatement(
                sql: "SELECT attname::text FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped "
                    + "AND attgenerated = '' ORDER BY attnum", arguments: [.text(quote(name))])) { row in
                if case .text(let column) = row.value(at: 0) { columns.append(column) }
                return true
            }
            let selected = columns.map(quote).joined(separator: ", ")
            try await connection.execute(SQLStatement(
                sql: "DECLARE query_backup NO SCROLL CURSOR FOR SELECT row_to_json(t)::text FROM (SELECT \(selected) FROM \(quote(name))) t"))
            var batches = 0
            while true {
                var rows: [String] = []
                try await connection.forEachRow(SQLStatement(sql: "FETCH \(PostgresBackupTables.rowsPerBatch) FROM query_backup")) { row in
                    if case .text(let json) = row.value(at: 0) { rows.append(json) }
                    return true
                }
                if rows.isEmpty { break }
                try await PostgresBackupTables.writeBatch(rows, to: PostgresBackupTables.batchPath(in: folder, table: index, batch: batches))
                batches += 1
            }
            try await connection.execute(SQLStatement(sql: "CLOSE query_backup"))
            list.tables.append(.init(name: name, columns: columns, batches: batches))
        }
        for name in try await relations(of: "'S'", on: connection) {
            try await connection.forEachRow(SQLStatement(sql: "SELECT last_value, is_called FROM \(quote(name))")) { row in
                if case .integer(let value) = row.value(at: 0), case .integer(let called) = row.value(at: 1) {
                    list.sequences.append(.init(name: name, lastValue: value, isCalled: called != 0))
                }
                return false
            }
        }
        try await list.write(to: folder)
    }

    /// The names of the current schema's relations of the given kinds (`pg_class.relkind`), in name order.
    private static func relations(of kinds: String, on connection: PostgresSQLConnection) async throws -> [String] {
        var names: [String] = []
        try await connection.forEachRow(SQLStatement(
            sql: "SELECT relname::text FROM pg_class WHERE relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()) "
                + "AND relkind IN (\(kinds)) ORDER BY relname COLLATE \"C\"")) { row in
            if case .text(let name) = row.value(at: 0) { names.append(name) }
            return true
        }
        return names
    }

    func restoreBackup(from folder: String) async throws(RecordStoreError) {
        let list = try await PostgresBackupTables.read(from: folder)
        let catalog = try await Self.catalog(of: list, in: folder)
        // The store's tables go: those of its record types, its own ($...), and those the backup fills.
        let ownTypes = try await self.catalog().recordTypes.keys
        let backedUp = Set(list.tables.map(\.name))
        try await write { connection in
            try await Self.lockSchema(on: connection)
            let doomed = try await Self.relations(of: "'r', 'p'", on: connection).filter { name in
                name.hasPrefix("$") || backedUp.contains(name) || ownTypes.contains { name == $0 || name.hasPrefix($0 + "$") }
            }
            if !doomed.isEmpty {
                try await connection.execute(SQLStatement(sql: "DROP TABLE \(doomed.map(PostgresDialect.quote).joined(separator: ", ")) CASCADE"))
            }
        }
        let fresh = try await PostgresEngine.open(location, poolExecutor: poolExecutor)
        if !catalog.recordTypes.isEmpty || !catalog.sortedTemplates.isEmpty {
            try await fresh.define(catalog.sorted, templates: catalog.sortedTemplates, progress: nil)
        }
        try await fresh.write { connection in try await Self.fill(list, from: folder, on: connection) }
    }

    /// The schema catalog the backup's `$schema` table holds.
    private static func catalog(of list: PostgresBackupTables, in folder: String) async throws(RecordStoreError) -> SchemaCatalog {
        guard let index = list.tables.firstIndex(where: { $0.name == TableLayout.schemaTable }) else {
            throw .backupRefused(.notABackup(path: folder, reason: "it holds no \(TableLayout.schemaTable) table"))
        }
        guard list.tables[index].batches > 0 else { return SchemaCatalog() }
        let rows = try await PostgresBackupTables.readBatch(at: PostgresBackupTables.batchPath(in: folder, table: index, batch: 0))
        struct StoredCatalog: Decodable { var catalog: String }
        do {
            guard let stored = try JSONDecoder().decode([StoredCatalog].self, from: Data(rows.utf8)).first, !stored.catalog.isEmpty else {
                return SchemaCatalog()
            }
            return try JSONDecoder().decode(SchemaCatalog.self, from: Data(stored.catalog.utf8))
        } catch {
            throw .backupRefused(.notABackup(path: folder, reason: "its \(TableLayout.schemaTable) table holds no readable schema"))
        }
    }

    /// Empties the store's tables, fills those of the backup, and sets the sequences.
    private static func fill(_ list: PostgresBackupTables, from folder: String, on connection: PostgresSQLConnection) async throws {
        let quote = PostgresDialect.quote
        let existing = Set(try await relations(of: "'r', 'p'", on: connection))
        for table in list.tables where !existing.contains(table.name) {
            throw RecordStoreError.storage("the restored store has no table \(table.name), which the backup holds")
        }
        try await connection.execute(SQLStatement(sql: "TRUNCATE \(list.tables.map { quote($0.name) }.joined(separator: ", "))"))
        for (index, table) in list.tables.enumerated() where table.batches > 0 {
            let columns = table.columns.map(quote).joined(separator: ", ")
            let insert = "INSERT INTO \(quote(table.name)) (\(columns)) OVERRIDING SYSTEM VALUE "
                + "SELECT \(columns) FROM json_populate_recordset(NULL::\(quote(table.name)), $1::json)"
            for batch in 0..<table.batches {
                let rows = try await PostgresBackupTables.readBatch(at: PostgresBackupTables.batchPath(in: folder, table: index, batch: batch))
                try await connection.execute(SQLStatement(sql: insert, arguments: [.text(rows)]))
            }
        }
        for sequence in list.sequences {
            try await connection.execute(SQLStatement(
                sql: "SELECT setval(to_regclass($1), $2, $3 <> 0)",
                arguments: [.text(quote(sequence.name)), .integer(sequence.lastValue), .integer(sequence.isCalled ? 1 : 0)]))
        }
        // The backup's positions are another cluster's transaction IDs (or an older store's):
        // new ones must come after them, and after the backup's own position.
        try await connection.execute(PostgresChangePositions.raiseBaseStatement(atLeast: list.changePosition ?? 0))
    }

    func adoptIdentity(_ storeIdentifier: [UInt8], ancestors: [StoreAncestor]) async throws(RecordStoreError) {
        try await write { connection in
            let metadata = PostgresStoreMetadata(connection: connection)
            try await metadata.setValue(Data(storeIdentifier), named: "storeIdentifier")
            try await metadata.setValue(Data(StoreAncestor.encoded(ancestors)), named: StoreAncestor.metadataName)
        }
    }
}
#endif
