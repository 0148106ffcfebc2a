// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// The PostgreSQL engine's side of a ``SchemaMigration``, on the migration's transaction: a
/// field's columns (its value, its spelling, a location's coordinates) renamed with
/// `ALTER TABLE … RENAME COLUMN` or dropped, a list field's side table made again under its new
/// name, a record type's table renamed with the type names of its registry rows and
/// tombstones, defaults filled in with one `UPDATE`. Rows keep their identities, change tags,
/// dates and history positions; the indexes, derived columns, list members and full text are
/// taken down first and built again by the final define (after the commit, on a populated table).
///
/// ```swift
/// var storage = PostgresMigrationStorage(storage: PostgresSchemaStorage(connection: connection, buildsPopulatedTablesLater: true))
/// try await SchemaMigrationProcedure.run(migration, catalog: &catalog, storage: &storage)
/// ```
struct PostgresMigrationStorage: SchemaMigrationStorage {
    let storage: PostgresSchemaStorage

    private func quote(_ name: String) -> String { PostgresDialect.quote(name) }

    private func execute(_ sql: String, _ arguments: [SQLValue] = []) async throws {
        try await storage.connection.execute(SQLStatement(sql: sql, arguments: arguments))
    }

    /// The columns a field's values take in its record table, derived ones aside.
    private func columns(of field: FieldSchema) -> [String] {
        var columns = [field.name]
        if StoredSpelling.hasColumn(field) { columns.append(TableLayout.spellingColumn(field.name)) }
        if field.type == .location { columns += [TableLayout.latitudeColumn(field.name), TableLayout.longitudeColumn(field.name)] }
        return columns
    }

    func holdsRecords(_ recordType: RecordTypeSchema) async throws -> Bool {
        try await storage.isPopulated(TableLayout.recordTable(recordType.name))
    }

    func lacksValues(_ field: FieldSchema, of recordType: RecordTypeSchema) async throws -> Bool {
        let table = TableLayout.recordTable(recordType.name)
        guard try await storage.columns(of: table).contains(field.name) else { return false }
        return try await storage.connection.rowCount(SQLStatement(sql: "SELECT 1 FROM \(quote(table)) WHERE \(quote(field.name)) IS NULL LIMIT 1")) > 0
    }

    func sharesValues(_ fields: [String], of recordType: RecordTypeSchema) async throws -> Bool {
        let table = TableLayout.recordTable(recordType.name)
        let existing = try await storage.columns(of: table)
        guard !existing.isEmpty, fields.allSatisfy(existing.contains) else { return false }
        let columns = ([TableLayout.zoneColumn] + fields).map(quote).joined(separator: ", ")
        let present = fields.map { "\(quote($0)) IS NOT NULL" }.joined(separator: " AND ")
        return try await storage.connection.rowCount(SQLStatement(
            sql: "SELECT 1 FROM \(quote(table)) WHERE \(present) GROUP BY \(columns) HAVING count(*) > 1 LIMIT 1")) > 0
    }

    func takeDownIndexes(from old: RecordTypeSchema, to stripped: RecordTypeSchema) async throws {
        try await storage.applyIndexChanges(from: old, to: stripped)
    }

    func removeField(_ field: FieldSchema, of recordType: RecordTypeSchema) async throws {
        let table = quote(TableLayout.recordTable(recordType.name))
        if field.type.isList { try await execute("DROP TABLE IF EXISTS \(quote(PostgresLayout.listTable(recordType.name, field: field.name)))") }
        for column in columns(of: field) {
            try await execute("ALTER TABLE \(table) DROP COLUMN IF EXISTS \(quote(column))")
        }
    }

    func renameField(_ field: FieldSchema, to name: String, of recordType: RecordTypeSchema) async throws {
        let tableName = TableLayout.recordTable(recordType.name)
        let existing = try await storage.columns(of: tableName)
        var renamed = field
        renamed.name = name
        for (from, to) in zip(columns(of: field), columns(of: renamed)) where existing.contains(from) {
            try await execute("ALTER TABLE \(quote(tableName)) RENAME COLUMN \(quote(from)) TO \(quote(to))")
        }
        if let elementType = field.type.elementType {
            // Its members were dropped with its indexes; the final define writes them again.
            try await execute("DROP TABLE IF EXISTS \(quote(PostgresLayout.listTable(recordType.name, field: field.name)))")
            try await storage.createListTable(recordType.name, field: name, elementType: elementType)
        }
    }

    /// Renames the record table (its constraints keep their names, which nothing reads), makes
    /// its list tables again under the new name, and moves the registry rows and tombstones.
    func renameRecordType(_ recordType: RecordTypeSchema, to name: String) async throws {
        try await execute("ALTER TABLE IF EXISTS \(quote(TableLayout.recordTable(recordType.name))) RENAME TO \(quote(TableLayout.recordTable(name)))")
        for field in recordType.fields {
            guard let elementType = field.type.elementType else { continue }
            try await execute("DROP TABLE IF EXISTS \(quote(PostgresLayout.listTable(recordType.name, field: field.name)))")
            try await storage.createListTable(name, field: field.name, elementType: elementType)
        }
        for registry in [TableLayout.registryTable, TableLayout.tombstonesTable] {
            try await execute("UPDATE \(quote(registry)) SET recordType = $1 WHERE recordType = $2", [.text(name), .text(recordType.name)])
        }
        // A bulk load's deferred indexes, and indexes pending a build, follow the type.
        try await PostgresStoreMetadata(connection: storage.connection).moveMarks(of: recordType.name, to: name)
    }

    func define(_ recordTypes: [RecordTypeSchema], templates: [FetchRequestTemplate], catalog: inout SchemaCatalog) async throws {
        try await storage.define(recordTypes, templates: templates, catalog: &catalog)
    }

    func fill(_ field: FieldSchema, of recordType: RecordTypeSchema, with value: FieldDefaultValue) async throws {
        let stored = StoredValueEncoding.encode(value.value)
        let cast = field.type == .bool ? "$1::integer::boolean" : "$1::" + PostgresLayout.castType(PostgresLayout.columnType(field.type))
        var assignments = ["\(quote(field.name)) = \(cast)"]
        var arguments = [stored]
        if StoredSpelling.hasColumn(field) {
            assignments.append("\(quote(TableLayout.spellingColumn(field.name))) = $2::text")
            arguments.append(StoredSpelling.value(of: value.value, stored: stored))
        }
        try await execute(
            "UPDATE \(quote(TableLayout.recordTable(recordType.name))) SET \(assignments.joined(separator: ", ")) WHERE \(quote(field.name)) IS NULL",
            arguments)
    }
}
#endif
