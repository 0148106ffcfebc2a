import GRDB
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// The SQLite engine's side of a ``SchemaMigration``, on the migration's write transaction:
/// a field's columns (its value, its spelling, a location's coordinates) renamed with
/// `ALTER TABLE … RENAME COLUMN` or dropped, a record type's tables renamed with the type names
/// of its registry rows and tombstones, defaults filled in with one `UPDATE`. Rows keep their
/// row ids, change tags, dates and history positions; the indexes, derived columns, list
/// members and full text are taken down first and built again by the final define.
///
/// ```swift
/// var storage = SQLiteMigrationStorage(db: db, storage: SQLiteSchemaStorage())
/// try await SchemaMigrationProcedure.run(migration, catalog: &catalog, storage: &storage)
/// ```
struct SQLiteMigrationStorage: SchemaMigrationStorage {
    let db: Database
    let storage: SQLiteSchemaStorage

    private func quote(_ name: String) -> String { SQLiteDialect.quote(name) }

    /// The columns a field's values take in its record table, derived ones aside.
    private func columns(of field: FieldSchema) -> [String] {
        var columns = [field.name]
        if StoredSpelling.hasColumn(field) { columns.append(TableLayout.spellingColumn(field.name)) }
        if field.type == .location { columns += [TableLayout.latitudeColumn(field.name), TableLayout.longitudeColumn(field.name)] }
        return columns
    }

    func holdsRecords(_ recordType: RecordTypeSchema) throws -> Bool {
        let table = TableLayout.recordTable(recordType.name)
        guard try db.tableExists(table) else { return false }
        return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(quote(table)))") ?? false
    }

    func lacksValues(_ field: FieldSchema, of recordType: RecordTypeSchema) throws -> Bool {
        let table = TableLayout.recordTable(recordType.name)
        guard try db.tableExists(table) else { return false }
        return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(quote(table)) WHERE \(quote(field.name)) IS NULL)") ?? false
    }

    func sharesValues(_ fields: [String], of recordType: RecordTypeSchema) throws -> Bool {
        let table = TableLayout.recordTable(recordType.name)
        guard try db.tableExists(table) else { return false }
        let existing = Set(try db.columns(in: table).map(\.name))
        guard fields.allSatisfy(existing.contains) else { return false }
        let columns = ([TableLayout.zoneColumn] + fields).map(quote).joined(separator: ", ")
        let present = fields.map { "\(quote($0)) IS NOT NULL" }.joined(separator: " AND ")
        return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(quote(table)) WHERE \(present) GROUP BY \(columns) HAVING count(*) > 1)") ?? false
    }

    func takeDownIndexes(from old: RecordTypeSchema, to stripped: RecordTypeSchema) throws {
        try SQLiteIndexChanges(db: db).apply(from: old, to: stripped)
    }

    func removeField(_ field: FieldSchema, of recordType: RecordTypeSchema) throws {
        let table = TableLayout.recordTable(recordType.name)
        let existing = Set(try db.columns(in: table).map(\.name))
        for column in columns(of: field) where existing.contains(column) {
            try db.execute(sql: "ALTER TABLE \(quote(table)) DROP COLUMN \(quote(column))")
        }
    }

    func renameField(_ field: FieldSchema, to name: String, of recordType: RecordTypeSchema) throws {
        let table = TableLayout.recordTable(recordType.name)
        let existing = Set(try db.columns(in: table).map(\.name))
        var renamed = field
        renamed.name = name
        for (from, to) in zip(columns(of: field), columns(of: renamed)) where existing.contains(from) {
            try db.execute(sql: "ALTER TABLE \(quote(table)) RENAME COLUMN \(quote(from)) TO \(quote(to))")
        }
    }

    /// Drops the indexes left on the type's tables (they carry its old name), renames the
    /// record and list tables, makes the new name's own indexes, and moves the registry rows
    /// and tombstones to the new name.
    func renameRecordType(_ recordType: RecordTypeSchema, to name: String) throws {
        let (table, list) = (TableLayout.recordTable(recordType.name), TableLayout.listTable(recordType.name))
        let indexes = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN (?, ?) AND sql IS NOT NULL", arguments: [table, list])
        for index in indexes { try db.execute(sql: "DROP INDEX \(quote(index))") }
        try db.execute(sql: "DROP TABLE IF EXISTS \(quote(SQLiteLayout.fullTextTable(recordType.name)))")
        if try db.tableExists(table) {
            try db.execute(sql: "ALTER TABLE \(quote(table)) RENAME TO \(quote(TableLayout.recordTable(name)))")
        }
        if try db.tableExists(list) {
            try db.execute(sql: "ALTER TABLE \(quote(list)) RENAME TO \(quote(TableLayout.listTable(name)))")
        }
        // The tables exist: only the new name's own indexes are made.
        try storage.apply([.addedRecordType(name)], catalog: SchemaCatalog(), db)
        for registry in [TableLayout.registryTable, TableLayout.tombstonesTable] {
            try db.execute(sql: "UPDATE \(quote(registry)) SET recordType = ? WHERE recordType = ?", arguments: [name, recordType.name])
        }
    }

    func define(_ recordTypes: [RecordTypeSchema], templates: [FetchRequestTemplate], catalog: inout SchemaCatalog) throws {
        try storage.define(recordTypes, templates: templates, catalog: &catalog, db)
    }

    func fill(_ field: FieldSchema, of recordType: RecordTypeSchema, with value: FieldDefaultValue) throws {
        let stored = StoredValueEncoding.encode(value.value)
        var assignments = ["\(quote(field.name)) = ?"]
        var arguments = [SQLiteValueConversion.databaseValue(stored)]
        if StoredSpelling.hasColumn(field) {
            assignments.append("\(quote(TableLayout.spellingColumn(field.name))) = ?")
            arguments.append(SQLiteValueConversion.databaseValue(StoredSpelling.value(of: value.value, stored: stored)))
        }
        try db.execute(
            sql: "UPDATE \(quote(TableLayout.recordTable(recordType.name))) SET \(assignments.joined(separator: ", ")) WHERE \(quote(field.name)) IS NULL",
            arguments: StatementArguments(arguments))
    }
}
