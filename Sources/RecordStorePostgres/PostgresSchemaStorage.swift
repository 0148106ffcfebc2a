// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
import RecordStoreSQL

/// Creates the store's tables in PostgreSQL and keeps the record-type tables in step with the
/// schema (``PostgresLayout``): typed columns, derived columns (filled in Swift), list tables,
/// the full-text tokens and their GIN index, location points and their GiST index, and an
/// index per queryable or sortable field.
///
/// Every change runs inside the caller's transaction while it holds the store's schema lock
/// (``PostgresEngine/schemaLockKey``), so two processes never change the layout at once.
struct PostgresSchemaStorage {
    let connection: PostgresSQLConnection
    private var dialect: PostgresDialect { PostgresDialect() }

    private func quote(_ name: String) -> String { PostgresDialect.quote(name) }

    private func execute(_ sql: String, _ arguments: [SQLValue] = []) async throws {
        try await connection.execute(SQLStatement(sql: sql, arguments: arguments))
    }

    /// Creates the zones, schema, registry and metadata tables when missing.
    func createBaseTables() async throws {
        try await execute("CREATE TABLE IF NOT EXISTS \(quote(TableLayout.zonesTable)) (name text COLLATE \"C\" PRIMARY KEY)")
        try await execute("INSERT INTO \(quote(TableLayout.zonesTable)) (name) VALUES ($1) ON CONFLICT DO NOTHING", [.text(ZoneID.default.zoneName)])
        try await execute("CREATE TABLE IF NOT EXISTS \(quote(TableLayout.schemaTable)) (id integer PRIMARY KEY CHECK (id = 1), catalog text NOT NULL)")
        try await execute("""
            CREATE TABLE IF NOT EXISTS \(quote(TableLayout.registryTable)) (
                zone text COLLATE "C" NOT NULL, recordName text COLLATE "C" NOT NULL, recordType text COLLATE "C" NOT NULL,
                PRIMARY KEY (zone, recordName))
            """)
        try await execute("CREATE TABLE IF NOT EXISTS \(quote(PostgresLayout.metadataTable)) (name text COLLATE \"C\" PRIMARY KEY, value bytea NOT NULL)")
        for statement in PostgresCatalogCache.setupStatements { try await execute(statement) }
    }

    /// The columns a table has (none when it does not exist).
    func columns(of table: String) async throws -> Set<String> {
        var names = Set<String>()
        try await connection.forEachRow(SQLStatement(
            sql: "SELECT attname FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped",
            arguments: [.text(quote(table))])) { row in
            if case .text(let name) = row.value(at: 0) { names.insert(name) }
            return true
        }
        return names
    }

    /// Applies schema changes to the tables; the catalog itself is stored by the caller.
    func apply(_ changes: [SchemaChange], catalog: SchemaCatalog) async throws {
        for change in changes {
            switch change {
            case .addedRecordType(let recordType):
                try await createRecordType(recordType)
            case .addedField(let recordType, let field):
                try await addField(field, to: recordType)
            case .changedFieldType(let recordType, let fieldName, let type):
                try await changeType(of: fieldName, in: recordType, to: type)
            }
        }
        for recordType in Set(changes.map(Self.recordType)) {
            guard let schema = catalog.recordTypes[recordType] else { continue }
            try await ensureIndexes(schema)
        }
    }

    static func recordType(of change: SchemaChange) -> String {
        switch change {
        case .addedRecordType(let name): name
        case .addedField(let name, _): name
        case .changedFieldType(let name, _, _): name
        }
    }

    private func createRecordType(_ recordType: String) async throws {
        let table = quote(TableLayout.recordTable(recordType))
        try await execute("""
            CREATE TABLE IF NOT EXISTS \(table) (
                \(quote(PostgresLayout.rowColumn)) bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                \(quote(TableLayout.zoneColumn)) text COLLATE "C" NOT NULL,
                \(quote(TableLayout.recordNameColumn)) text COLLATE "C" NOT NULL,
                \(quote(TableLayout.creationDateColumn)) double precision,
                \(quote(TableLayout.modificationDateColumn)) double precision,
                \(quote(TableLayout.changeTagColumn)) text COLLATE "C",
                UNIQUE (\(quote(TableLayout.zoneColumn)), \(quote(TableLayout.recordNameColumn))))
            """)
    }

    private func addField(_ field: FieldSchema, to recordType: String) async throws {
        let table = quote(TableLayout.recordTable(recordType))
        try await execute("ALTER TABLE \(table) ADD COLUMN IF NOT EXISTS \(quote(field.name)) \(PostgresLayout.columnType(field.type))")
        if StoredSpelling.hasColumn(field) {
            try await execute("ALTER TABLE \(table) ADD COLUMN IF NOT EXISTS \(quote(TableLayout.spellingColumn(field.name))) text COLLATE \"C\"")
        }
        if field.type == .location {
            for column in [TableLayout.latitudeColumn(field.name), TableLayout.longitudeColumn(field.name)] {
                try await execute("ALTER TABLE \(table) ADD COLUMN IF NOT EXISTS \(quote(column)) double precision")
            }
        }
        if let elementType = field.type.elementType {
            try await createListTable(recordType, field: field.name, elementType: elementType)
        }
    }

    /// Adds the spelling column (``StoredSpelling``) of every string field that lacks it: a store
    /// written before the column existed (every string then stored in NFC) keeps opening, and
    /// reads back as it did. Adding a nullable column rewrites no rows.
    func addSpellingColumns(_ catalog: SchemaCatalog) async throws {
        for schema in catalog.sorted {
            let tableName = TableLayout.recordTable(schema.name)
            let fields = schema.fields.filter(StoredSpelling.hasColumn)
            guard !fields.isEmpty else { continue }
            let existing = try await columns(of: tableName)
            guard !existing.isEmpty else { continue }
            for field in fields where !existing.contains(TableLayout.spellingColumn(field.name)) {
                try await execute("ALTER TABLE \(quote(tableName)) ADD COLUMN IF NOT EXISTS \(quote(TableLayout.spellingColumn(field.name))) text COLLATE \"C\"")
            }
        }
    }

    /// A list field's side table: one row per member, removed with its record.
    private func createListTable(_ recordType: String, field: String, elementType: FieldType) async throws {
        let table = PostgresLayout.listTable(recordType, field: field)
        let folded = DerivedColumn.memberForms.map { "\(quote(TableLayout.derivedColumn("value", $0))) text COLLATE \"C\"" }.joined(separator: ", ")
        try await execute("""
            CREATE TABLE IF NOT EXISTS \(quote(table)) (
                record bigint NOT NULL REFERENCES \(quote(TableLayout.recordTable(recordType))) (\(quote(PostgresLayout.rowColumn))) ON DELETE CASCADE,
                position integer NOT NULL, value \(PostgresLayout.columnType(elementType)), \(folded))
            """)
        try await execute("CREATE INDEX IF NOT EXISTS \(quote(PostgresLayout.listIndex(recordType, field: field, column: "record"))) ON \(quote(table)) (record)")
        for column in ["value"] + DerivedColumn.memberForms.map({ TableLayout.derivedColumn("value", $0) }) {
            let value = elementType == .bool && column == "value" ? "((value)::integer)" : quote(column)
            try await execute("CREATE INDEX IF NOT EXISTS \(quote(PostgresLayout.listIndex(recordType, field: field, column: column))) ON \(quote(table)) (\(value), record)")
        }
    }

    /// A field's column (and a list's member column) converted to a new type: an integer field
    /// widened to double, or a provisional list field taking its members' type.
    private func changeType(of field: String, in recordType: String, to type: FieldType) async throws {
        let table = quote(TableLayout.recordTable(recordType))
        let columnType = PostgresLayout.columnType(type)
        try await execute("ALTER TABLE \(table) ALTER COLUMN \(quote(field)) TYPE \(columnType) USING \(quote(field))::\(columnType.replacingOccurrences(of: " COLLATE \"C\"", with: ""))")
        if let elementType = type.elementType {
            let list = PostgresLayout.listTable(recordType, field: field)
            if try await columns(of: list).isEmpty {
                try await createListTable(recordType, field: field, elementType: elementType)
            } else {
                // Drop the value index first: a boolean list indexes an expression of the old type.
                try await execute("DROP INDEX IF EXISTS \(quote(PostgresLayout.listIndex(recordType, field: field, column: "value")))")
                let memberType = PostgresLayout.columnType(elementType)
                try await execute("ALTER TABLE \(quote(list)) ALTER COLUMN value TYPE \(memberType) USING value::text::\(memberType.replacingOccurrences(of: " COLLATE \"C\"", with: ""))")
                try await createListTable(recordType, field: field, elementType: elementType)
            }
        }
    }

    /// Creates what the schema's flags ask for: field indexes `(zone, column, record name)`,
    /// derived columns (filled from the rows) and their indexes, the full-text tokens and
    /// their GIN index, and each location field's GiST index. Drops nothing.
    func ensureIndexes(_ schema: RecordTypeSchema) async throws {
        let tableName = TableLayout.recordTable(schema.name)
        let table = quote(tableName)
        let zone = quote(TableLayout.zoneColumn)
        let recordName = quote(TableLayout.recordNameColumn)
        var existing = try await columns(of: tableName)
        for field in schema.fields where field.isIndexed && !field.type.isList && field.type != .location {
            let column = field.type == .bool ? dialect.booleanAsNumber(quote(field.name)) : quote(field.name)
            try await execute("""
                CREATE INDEX IF NOT EXISTS \(quote(TableLayout.fieldIndex(schema.name, field: field.name)))
                ON \(table) (\(zone), (\(column)) NULLS FIRST, \(recordName))
                """)
        }
        for field in schema.fields {
            let derived = DerivedColumn.columns(for: field)
            let missing = derived.filter { !existing.contains(TableLayout.derivedColumn(field.name, $0)) }
            for column in missing {
                try await execute("ALTER TABLE \(table) ADD COLUMN \(quote(TableLayout.derivedColumn(field.name, column))) \(PostgresLayout.columnType(column))")
            }
            if !missing.isEmpty { try await fill(missing, of: field.name, in: schema.name) }
            for column in derived {
                try await execute("""
                    CREATE INDEX IF NOT EXISTS \(quote(TableLayout.derivedIndex(schema.name, field: field.name, column)))
                    ON \(table) (\(zone), \(quote(TableLayout.derivedColumn(field.name, column))) NULLS FIRST, \(recordName))
                    """)
            }
            if field.type == .location, field.isIndexed {
                try await execute("""
                    CREATE INDEX IF NOT EXISTS \(quote(PostgresLayout.locationIndex(schema.name, field: field.name)))
                    ON \(table) USING gist (\(PostgresLayout.pointExpression(field: field.name, alias: nil)))
                    """)
            }
        }
        if !schema.searchableFieldNames.isEmpty, !existing.contains(PostgresLayout.fullTextColumn) {
            try await execute("ALTER TABLE \(table) ADD COLUMN \(quote(PostgresLayout.fullTextColumn)) text[] NOT NULL DEFAULT '{}'")
            try await execute("CREATE INDEX IF NOT EXISTS \(quote(PostgresLayout.fullTextIndex(schema.name))) ON \(table) USING gin (\(quote(PostgresLayout.fullTextColumn)))")
            existing.insert(PostgresLayout.fullTextColumn)
            try await rebuildFullText(schema)
        }
    }

    /// Drops what `old` built that `new` no longer asks for (a field's index, derived columns,
    /// a list's members, a location's index, the full-text column when no field is searchable),
    /// and writes the members of lists that become queryable; ``ensureIndexes(_:)`` builds the rest.
    /// Queries give the same answers before and after; only their plans change.
    func applyIndexChanges(from old: RecordTypeSchema, to new: RecordTypeSchema) async throws {
        let tableName = TableLayout.recordTable(new.name)
        guard !(try await columns(of: tableName)).isEmpty else { return }
        let table = quote(tableName)
        for field in new.fields {
            guard let before = old.field(named: field.name) else { continue }
            if before.isIndexed, !field.isIndexed, !field.type.isList, field.type != .location {
                try await execute("DROP INDEX IF EXISTS \(quote(TableLayout.fieldIndex(new.name, field: field.name)))")
            }
            let kept = Set(DerivedColumn.columns(for: field))
            for derived in DerivedColumn.columns(for: before) where !kept.contains(derived) {
                // Dropping the column drops its index.
                try await execute("ALTER TABLE \(table) DROP COLUMN IF EXISTS \(quote(TableLayout.derivedColumn(field.name, derived)))")
            }
            if let elementType = field.type.elementType, before.isQueryable != field.isQueryable {
                let list = quote(PostgresLayout.listTable(new.name, field: field.name))
                if field.isQueryable {
                    try await createListTable(new.name, field: field.name, elementType: elementType)
                    try await fillMembers(of: field, elementType: elementType, in: new.name)
                } else {
                    try await execute("DELETE FROM \(list)")
                }
            }
            if field.type == .location, before.isIndexed, !field.isIndexed {
                try await execute("DROP INDEX IF EXISTS \(quote(PostgresLayout.locationIndex(new.name, field: field.name)))")
            }
        }
        if new.searchableFieldNames.isEmpty {
            try await execute("ALTER TABLE \(table) DROP COLUMN IF EXISTS \(quote(PostgresLayout.fullTextColumn))")
        }
    }

    /// Writes the members of a list field that becomes queryable, from the lists the rows hold as typed JSON.
    private func fillMembers(of field: FieldSchema, elementType: FieldType, in recordType: String) async throws {
        let table = quote(TableLayout.recordTable(recordType))
        let row = quote(PostgresLayout.rowColumn)
        var pending: [(Int64, String)] = []
        try await connection.forEachRow(SQLStatement(sql: "SELECT \(row), \(quote(field.name)) FROM \(table) WHERE \(quote(field.name)) IS NOT NULL")) { values in
            if case .integer(let id) = values.value(at: 0), case .text(let json) = values.value(at: 1) { pending.append((id, json)) }
            return true
        }
        var lists: [(rowID: Int64, members: [Value])] = []
        lists.reserveCapacity(pending.count)
        for (id, json) in pending {
            guard case .list(let members)? = try? Value(jsonText: json) else {
                throw RecordStoreError.storage("a row of '\(recordType)' holds no JSON list in its field '\(field.name)'")
            }
            lists.append((id, members.map { RecordRowReader.member($0, as: elementType) }))
        }
        try await PostgresRecordWriter.insertMembers(lists, of: field.name, elementType: elementType, recordType: recordType, connection: connection)
    }

    /// Computes derived columns, in Swift, for every row with a string in the field.
    func fill(_ columns: [DerivedColumn], of field: String, in recordType: String) async throws {
        let table = quote(TableLayout.recordTable(recordType))
        let row = quote(PostgresLayout.rowColumn)
        var pending: [(Int64, String)] = []
        try await connection.forEachRow(SQLStatement(sql: "SELECT \(row), \(quote(field)) FROM \(table) WHERE \(quote(field)) IS NOT NULL")) { values in
            if case .integer(let id) = values.value(at: 0), case .text(let text) = values.value(at: 1) { pending.append((id, text)) }
            return true
        }
        let assignments = columns.enumerated().map { "\(quote(TableLayout.derivedColumn(field, $1))) = $\($0 + 1)" }.joined(separator: ", ")
        let sql = "UPDATE \(table) SET \(assignments) WHERE \(row) = $\(columns.count + 1)"
        for (id, text) in pending {
            try await connection.execute(SQLStatement(sql: sql, arguments: columns.map { $0.value(of: text) } + [.integer(id)]))
        }
    }

    /// Computes the full-text tokens of every row again (after the searchable fields changed).
    func rebuildFullText(_ schema: RecordTypeSchema) async throws {
        let table = quote(TableLayout.recordTable(schema.name))
        let row = quote(PostgresLayout.rowColumn)
        let fields = schema.searchableFieldNames
        guard try await self.columns(of: TableLayout.recordTable(schema.name)).contains(PostgresLayout.fullTextColumn) else { return }
        guard !fields.isEmpty else {
            try await execute("UPDATE \(table) SET \(quote(PostgresLayout.fullTextColumn)) = '{}'")
            return
        }
        var pending: [(Int64, String)] = []
        try await connection.forEachRow(SQLStatement(sql: "SELECT \(row), \(fields.map(quote).joined(separator: ", ")) FROM \(table)")) { values in
            guard case .integer(let id) = values.value(at: 0) else { return true }
            var tokens: [String] = []
            for index in fields.indices {
                if case .text(let text) = values.value(at: index + 1) { tokens += FullTextTokenizer.tokens(text) }
            }
            pending.append((id, PostgresDialect.arrayLiteral(tokens)))
            return true
        }
        for (id, tokens) in pending {
            try await connection.execute(SQLStatement(
                sql: "UPDATE \(table) SET \(quote(PostgresLayout.fullTextColumn)) = $1::text[] WHERE \(row) = $2",
                arguments: [.text(tokens), .integer(id)]))
        }
    }
}
#endif
