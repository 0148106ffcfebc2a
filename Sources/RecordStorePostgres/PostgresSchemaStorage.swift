// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Foundation
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Creates the store's tables in PostgreSQL and keeps the record-type tables in step with the
/// schema (``PostgresLayout``): typed columns, derived columns (filled in Swift), list tables,
/// the full-text tokens and their GIN index, location points and their SP-GiST index, and an
/// index per queryable or sortable field.
///
/// Every change runs inside the caller's transaction while it holds the store's schema lock
/// (``PostgresEngine/schemaLockKey``), so two processes never change the layout at once.
struct PostgresSchemaStorage {
    let connection: PostgresSQLConnection
    /// Whether the indexes a populated table lacks are left to build after the transaction
    /// (``PostgresIndexBuilds/buildPending(executor:)``, with `CREATE INDEX CONCURRENTLY`)
    /// rather than built in it: what `define` asks for, so that writers are not locked out of
    /// the table for the whole build. A save's just-in-time field builds in its transaction.
    var buildsPopulatedTablesLater = false
    private func quote(_ name: String) -> String { PostgresDialect.quote(name) }

    private func execute(_ sql: String, _ arguments: [SQLValue] = []) async throws {
        try await connection.execute(SQLStatement(sql: sql, arguments: arguments))
    }

    /// Creates the zones, schema, registry and metadata tables when missing.
    func createBaseTables() async throws {
        try await execute("CREATE TABLE IF NOT EXISTS \(quote(TableLayout.zonesTable)) (name text COLLATE \"C\" PRIMARY KEY)")
        try await execute("INSERT INTO \(quote(TableLayout.zonesTable)) (name) VALUES ($1) ON CONFLICT DO NOTHING", [.text(ZoneID.default.zoneName)])
        try await execute("CREATE TABLE IF NOT EXISTS \(quote(TableLayout.schemaTable)) (id integer PRIMARY KEY CHECK (id = 1), catalog text NOT NULL)")
        try await execute(PostgresLayout.listenersTableDefinition)
        try await execute("""
            CREATE TABLE IF NOT EXISTS \(quote(TableLayout.registryTable)) (
                zone text COLLATE "C" NOT NULL, recordName text COLLATE "C" NOT NULL, recordType text COLLATE "C" NOT NULL,
                PRIMARY KEY (zone, recordName) WITH (fillfactor = 100))
            """)
        try await execute("CREATE TABLE IF NOT EXISTS \(quote(PostgresLayout.metadataTable)) (name text COLLATE \"C\" PRIMARY KEY, value bytea NOT NULL)")
        for statement in PostgresCatalogCache.setupStatements { try await execute(statement) }
        try await createHistoryTables()
    }

    /// The change history's tables (``SQLExecutor``'s history functions read and write them):
    /// the one-row `$history`, `$tombstones`, `$deletedZones`, and the `position` of the registry
    /// (indexed by zone and position) and of the zones (with `created`). A store made before the
    /// history gains them when opened; its records and zones carry position 0.
    private func createHistoryTables() async throws {
        let (history, tombstones, deletedZones) = (TableLayout.historyTable, TableLayout.tombstonesTable, TableLayout.deletedZonesTable)
        let (registry, zones) = (TableLayout.registryTable, TableLayout.zonesTable)
        try await execute("CREATE TABLE IF NOT EXISTS \(quote(history)) (id integer PRIMARY KEY CHECK (id = 1), position bigint NOT NULL, floor bigint NOT NULL)")
        try await execute("INSERT INTO \(quote(history)) (id, position, floor) VALUES (1, 0, 0) ON CONFLICT DO NOTHING")
        // Positions are transaction IDs plus this base (PostgresChangePositions); the counter
        // `position` stays as the last one a store made before kept.
        try await execute("ALTER TABLE \(quote(history)) ADD COLUMN IF NOT EXISTS xidBase bigint NOT NULL DEFAULT 0")
        try await execute("""
            CREATE TABLE IF NOT EXISTS \(quote(tombstones)) (
                zone text COLLATE "C" NOT NULL, recordName text COLLATE "C" NOT NULL, recordType text COLLATE "C" NOT NULL,
                position bigint NOT NULL, deletedAt double precision NOT NULL, PRIMARY KEY (zone, recordName))
            """)
        try await execute("CREATE INDEX IF NOT EXISTS \(quote(tombstones + "$position")) ON \(quote(tombstones)) (zone, position, recordName)")
        try await execute("""
            CREATE TABLE IF NOT EXISTS \(quote(deletedZones)) (name text COLLATE "C" PRIMARY KEY, position bigint NOT NULL, deletedAt double precision NOT NULL)
            """)
        try await execute("ALTER TABLE \(quote(registry)) ADD COLUMN IF NOT EXISTS position bigint NOT NULL DEFAULT 0")
        try await execute("ALTER TABLE \(quote(zones)) ADD COLUMN IF NOT EXISTS position bigint NOT NULL DEFAULT 0")
        try await execute("ALTER TABLE \(quote(zones)) ADD COLUMN IF NOT EXISTS created bigint NOT NULL DEFAULT 0")
        try await execute(Self.registryPositionIndex)
        try await execute("CREATE INDEX IF NOT EXISTS \(quote(zones + "$position")) ON \(quote(zones)) (position, name)")
    }

    /// The registry's index by change position, which history pages read: `(zone, position)`
    /// without the record name, so that PostgreSQL keeps one key per position with the list of
    /// its rows (B-tree deduplication). A commit's records share its position: a bulk load's
    /// 5,000 a batch take 1.2 MB for cities1000 rather than 7. A page after a place in the middle
    /// of a position reads that position's rows and sorts them by record name (1.2 ms for
    /// 5,000 rather than 0.2 ms); a commit of a few records costs nothing more.
    static let registryPositionIndex = "CREATE INDEX IF NOT EXISTS \(PostgresDialect.quote(TableLayout.registryTable + "$position")) "
        + "ON \(PostgresDialect.quote(TableLayout.registryTable)) (zone, position) WITH (fillfactor = 100)"

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
        for change in Self.inColumnOrder(changes) {
            switch change {
            case .addedRecordType(let recordType):
                try await createRecordType(recordType, leadingFields: changes.compactMap { change in
                    guard case .addedField(recordType, let field) = change else { return nil }
                    return field
                })
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

    /// The changes in the order that packs a table's rows: new record types, then the fields
    /// they add by the width of their columns (8-byte numbers, locations, booleans, then the
    /// rest), then type changes. PostgreSQL aligns an 8-byte column on 8 bytes: a `double`
    /// after each string wastes up to 7 bytes a row, 18 in cities1000's rows of 420 when the
    /// columns came in the file's order. Fields added one at a time keep their order.
    static func inColumnOrder(_ changes: [SchemaChange]) -> [SchemaChange] {
        func rank(_ change: SchemaChange) -> Int {
            switch change {
            case .addedRecordType: 0
            case .addedField(_, let field):
                switch field.type {
                case .int64, .double, .date: 1
                case .location: 2
                case .bool: 3
                default: 4
                }
            case .changedFieldType: 5
            }
        }
        return changes.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }

    static func recordType(of change: SchemaChange) -> String {
        switch change {
        case .addedRecordType(let name): name
        case .addedField(let name, _): name
        case .changedFieldType(let name, _, _): name
        }
    }

    /// A record type's table: the 8-byte columns first (``inColumnOrder(_:)``), the metadata's
    /// and those of the fields created with the type (`fields`: their numbers, dates and
    /// coordinates), then the metadata's text. With a text column between two 8-byte ones,
    /// PostgreSQL pads each row to align the second (6 bytes a row of cities1000). The other
    /// fields' columns follow as ``addField(_:to:)`` adds them.
    ///
    /// The primary key's identities only grow, and the `(zone, record name)` index is built
    /// again after a bulk load (``PostgresIndexBuilds``): both fill their pages.
    private func createRecordType(_ recordType: String, leadingFields fields: [FieldSchema]) async throws {
        let table = quote(TableLayout.recordTable(recordType))
        var numbers: [String] = []
        for field in fields {
            switch field.type {
            case .int64, .double, .date: numbers.append("\(quote(field.name)) \(PostgresLayout.columnType(field.type))")
            case .location:
                numbers += [TableLayout.latitudeColumn(field.name), TableLayout.longitudeColumn(field.name)].map { "\(quote($0)) double precision" }
            default: break
            }
        }
        try await execute("""
            CREATE TABLE IF NOT EXISTS \(table) (
                \(quote(PostgresLayout.rowColumn)) bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY WITH (fillfactor = 100),
                \(quote(TableLayout.creationDateColumn)) double precision,
                \(quote(TableLayout.modificationDateColumn)) double precision,
                \((numbers.map { $0 + "," }).joined(separator: "\n"))
                \(quote(TableLayout.zoneColumn)) text COLLATE "C" NOT NULL,
                \(quote(TableLayout.recordNameColumn)) text COLLATE "C" NOT NULL,
                \(quote(TableLayout.changeTagColumn)) text COLLATE "C",
                \(quote(TableLayout.creatorColumn)) text COLLATE "C",
                \(quote(TableLayout.lastModifierColumn)) text COLLATE "C",
                UNIQUE (\(quote(TableLayout.zoneColumn)), \(quote(TableLayout.recordNameColumn))) WITH (fillfactor = 100))
            """)
    }

    private func addField(_ field: FieldSchema, to recordType: String) async throws {
        let table = quote(TableLayout.recordTable(recordType))
        // A location's coordinates come before its text, beside the other 8-byte columns.
        if field.type == .location {
            for column in [TableLayout.latitudeColumn(field.name), TableLayout.longitudeColumn(field.name)] {
                try await execute("ALTER TABLE \(table) ADD COLUMN IF NOT EXISTS \(quote(column)) double precision")
            }
        }
        try await execute("ALTER TABLE \(table) ADD COLUMN IF NOT EXISTS \(quote(field.name)) \(PostgresLayout.columnType(field.type))")
        if StoredSpelling.hasColumn(field) {
            try await execute("ALTER TABLE \(table) ADD COLUMN IF NOT EXISTS \(quote(TableLayout.spellingColumn(field.name))) text COLLATE \"C\"")
        }
        if let elementType = field.type.elementType {
            try await createListTable(recordType, field: field.name, elementType: elementType)
        }
    }

    /// Adds the spelling column (``StoredSpelling``) of every string field that lacks it: a store
    /// written before the column existed (every string then stored in NFC) keeps opening, and
    /// reads back as it did. Adding a nullable column rewrites no rows.
    func addSpellingColumns(_ catalog: SchemaCatalog) async throws {
        for (table, column) in try await missingSpellingColumns(catalog) {
            try await execute("ALTER TABLE \(quote(table)) ADD COLUMN IF NOT EXISTS \(quote(column)) text COLLATE \"C\"")
        }
    }

    /// The spelling columns (``StoredSpelling``) the record tables lack, each with its table:
    /// none once ``addSpellingColumns(_:)`` ran on the store.
    func missingSpellingColumns(_ catalog: SchemaCatalog) async throws -> [(table: String, column: String)] {
        var missing: [(table: String, column: String)] = []
        for schema in catalog.sorted {
            let tableName = TableLayout.recordTable(schema.name)
            let fields = schema.fields.filter(StoredSpelling.hasColumn)
            guard !fields.isEmpty else { continue }
            let existing = try await columns(of: tableName)
            guard !existing.isEmpty else { continue }
            for field in fields where !existing.contains(TableLayout.spellingColumn(field.name)) {
                missing.append((tableName, TableLayout.spellingColumn(field.name)))
            }
        }
        return missing
    }

    /// A list field's side table: one row per member, removed with its record.
    func createListTable(_ recordType: String, field: String, elementType: FieldType) async throws {
        let table = PostgresLayout.listTable(recordType, field: field)
        let folded = DerivedColumn.memberForms.map { "\(quote(TableLayout.derivedColumn("value", $0))) text COLLATE \"C\"" }.joined(separator: ", ")
        try await execute("""
            CREATE TABLE IF NOT EXISTS \(quote(table)) (
                record bigint NOT NULL REFERENCES \(quote(TableLayout.recordTable(recordType))) (\(quote(PostgresLayout.rowColumn))) ON DELETE CASCADE,
                position integer NOT NULL, value \(PostgresLayout.columnType(elementType)), \(folded))
            """)
        // Saves rely on this one (a record's members are replaced by its row): never deferred.
        // The member indexes are among ``secondaryIndexes(_:)``.
        try await execute("CREATE INDEX IF NOT EXISTS \(quote(PostgresLayout.listIndex(recordType, field: field, column: "record"))) ON \(quote(table)) (record)")
    }

    /// A field's column (and a list's member column) converted to a new type: an integer field
    /// widened to double, or a provisional list field taking its members' type.
    private func changeType(of field: String, in recordType: String, to type: FieldType) async throws {
        let table = quote(TableLayout.recordTable(recordType))
        let columnType = PostgresLayout.columnType(type)
        try await execute("ALTER TABLE \(table) ALTER COLUMN \(quote(field)) TYPE \(columnType) USING \(quote(field))::\(PostgresLayout.castType(columnType))")
        if let elementType = type.elementType {
            let list = PostgresLayout.listTable(recordType, field: field)
            if try await columns(of: list).isEmpty {
                try await createListTable(recordType, field: field, elementType: elementType)
            } else {
                // Drop the value index first: a boolean list indexes an expression of the old type.
                try await execute("DROP INDEX IF EXISTS \(quote(PostgresLayout.listIndex(recordType, field: field, column: "value")))")
                let memberType = PostgresLayout.columnType(elementType)
                try await execute("ALTER TABLE \(quote(list)) ALTER COLUMN value TYPE \(memberType) USING value::text::\(PostgresLayout.castType(memberType))")
                try await createListTable(recordType, field: field, elementType: elementType)
            }
        }
    }

    /// Creates what the schema's flags ask for: derived columns (filled from the rows), the
    /// full-text tokens, and the indexes of ``secondaryIndexes(_:)``. Drops nothing.
    ///
    /// The indexes are left out while a bulk load defers the type's indexes (``PostgresIndexBuilds``);
    /// with ``buildsPopulatedTablesLater``, those a populated table lacks are recorded as pending,
    /// for ``PostgresIndexBuilds/buildPending(executor:)`` to build once the transaction committed.
    func ensureIndexes(_ schema: RecordTypeSchema) async throws {
        let tableName = TableLayout.recordTable(schema.name)
        let table = quote(tableName)
        let existing = try await columns(of: tableName)
        for field in schema.fields {
            let derived = DerivedColumn.columns(for: field)
            let missing = derived.filter { !existing.contains(TableLayout.derivedColumn(field.name, $0)) }
            for column in missing {
                try await execute("ALTER TABLE \(table) ADD COLUMN \(quote(TableLayout.derivedColumn(field.name, column))) \(PostgresLayout.columnType(column))")
            }
            if !missing.isEmpty { try await fill(missing, of: field.name, in: schema.name) }
        }
        if !schema.searchableFieldNames.isEmpty, !existing.contains(PostgresLayout.fullTextColumn) {
            try await execute("ALTER TABLE \(table) ADD COLUMN \(quote(PostgresLayout.fullTextColumn)) tsvector NOT NULL DEFAULT ''")
            try await rebuildFullText(schema)
        }
        // A unique constraint per uniqueness constraint, made now in any case: saves resolve
        // conflicts before writing (``ConstraintResolution``), and the constraint keeps out a writer
        // that commits a conflicting record in between. It is checked at the commit (`DEFERRABLE
        // INITIALLY DEFERRED`), so that the order of a save's statements does not matter: a record
        // deleted after the writes, or two records that exchange values, break nothing.
        for constraint in schema.uniquenessConstraints {
            let name = TableLayout.uniqueIndex(schema.name, fields: constraint)
            guard try await connection.rowCount(SQLStatement(sql: "SELECT 1 WHERE to_regclass($1) IS NULL", arguments: [.text(quote(name))])) > 0 else { continue }
            let columns = ([TableLayout.zoneColumn] + constraint).map(quote).joined(separator: ", ")
            try await execute("ALTER TABLE \(table) ADD CONSTRAINT \(quote(name)) UNIQUE (\(columns)) DEFERRABLE INITIALLY DEFERRED")
        }
        let metadata = PostgresStoreMetadata(connection: connection)
        guard try await metadata.indexBuild(.deferred, of: schema.name) == nil else { return }
        if buildsPopulatedTablesLater, try await isPopulated(tableName) {
            for index in Self.secondaryIndexes(schema) {
                guard try await state(of: index) == .valid else {
                    try await metadata.mark(.pending, schema.name)
                    return
                }
            }
            return
        }
        try await buildIndexes(schema, concurrently: false)
    }

    /// A secondary index of a record type: what ``PostgresIndexBuilds`` may build after the
    /// rows are in. The primary key and the unique `(zone, record name)` constraint, which
    /// saves rely on, are not among them, nor a list table's index by record.
    ///
    /// ```swift
    /// let index = PostgresSchemaStorage.secondaryIndexes(schema)[0]
    /// try await connection.execute(SQLStatement(sql: index.createStatement(concurrently: true)))
    /// ```
    struct SecondaryIndex: Hashable, Sendable {
        /// The index's name (before ``PostgresLayout/identifier(_:)`` shortens it).
        let name: String
        /// What follows the name in `CREATE INDEX`: `ON table USING method (columns)`.
        let target: String
        /// The layout version (``PostgresLayoutMigration``) that last changed what this index
        /// holds: a store of an earlier version has it under the same name with another
        /// definition, which the migration drops for a build of this one.
        var definedInLayout: Int64 = 1

        /// `CREATE INDEX [CONCURRENTLY] IF NOT EXISTS name ON ...`.
        func createStatement(concurrently: Bool) -> String {
            "CREATE INDEX \(concurrently ? "CONCURRENTLY " : "")IF NOT EXISTS \(PostgresDialect.quote(name)) \(target)"
        }
    }

    /// Every secondary index the schema's flags ask for, in the order they are built: field
    /// indexes `(zone, column)`, derived-column indexes, each location field's SP-GiST index,
    /// the full-text tokens' GIN index, and each list table's member indexes.
    ///
    /// A B-tree ends in the record name only when a sort reads it (``endsInRecordName(_:derived:)``):
    /// then `ORDER BY column, record name` and keyset pages seek it, however many records share a
    /// value. The others hold `(zone, column)` alone, which PostgreSQL keeps as one key per
    /// distinct value with the list of its rows (B-tree deduplication): a country code's index
    /// takes 1.2 MB for cities1000 instead of 5.4. Their tests (`==`, `IN`, prefixes) seek it all
    /// the same, and the few matching rows are sorted by record name after.
    static func secondaryIndexes(_ schema: RecordTypeSchema) -> [SecondaryIndex] {
        func quote(_ name: String) -> String { PostgresDialect.quote(name) }
        let table = quote(TableLayout.recordTable(schema.name))
        let zone = quote(TableLayout.zoneColumn)
        let recordName = quote(TableLayout.recordNameColumn)
        // Built in one sorted pass after a load or a schema change, the B-trees fill their pages
        // (PostgreSQL's default leaves a tenth of each empty): a page splits when a later write
        // lands in it, as it would once that tenth was used up.
        func keyed(_ column: String, endsInRecordName: Bool) -> String {
            "(\(zone), \(column) NULLS FIRST\(endsInRecordName ? ", \(recordName)" : "")) WITH (fillfactor = 100)"
        }
        var indexes: [SecondaryIndex] = []
        for field in schema.fields where field.isIndexed && !field.type.isList && field.type != .location {
            let column = field.type == .bool ? PostgresDialect().booleanAsNumber(quote(field.name)) : quote(field.name)
            let ordered = endsInRecordName(field, derived: nil)
            indexes.append(SecondaryIndex(
                name: TableLayout.fieldIndex(schema.name, field: field.name),
                target: "ON \(table) \(keyed("(\(column))", endsInRecordName: ordered))", definedInLayout: ordered ? 1 : 2))
        }
        for field in schema.fields {
            for column in DerivedColumn.columns(for: field) {
                let ordered = endsInRecordName(field, derived: column)
                // `[cd]` is the expression its queries read (``PostgresLayout/foldedExpression(_:field:alias:)``).
                let expression = column == .caseAndDiacriticFolded
                    ? "(\(PostgresLayout.foldedExpression(column, field: field.name, alias: nil)))"
                    : quote(TableLayout.derivedColumn(field.name, column))
                indexes.append(SecondaryIndex(
                    name: TableLayout.derivedIndex(schema.name, field: field.name, column),
                    target: "ON \(table) \(keyed(expression, endsInRecordName: ordered))",
                    definedInLayout: column == .caseAndDiacriticFolded ? 3 : ordered ? 1 : 2))
            }
            if field.type == .location, field.isIndexed {
                // SP-GiST's quadtree of points answers `<@ box` as GiST does, in 7.4 MB instead of
                // 11.5 for cities1000 (with its pages filled; 8.0 MB at the default 80%).
                indexes.append(SecondaryIndex(
                    name: PostgresLayout.locationIndex(schema.name, field: field.name),
                    target: "ON \(table) USING spgist (\(PostgresLayout.pointExpression(field: field.name, alias: nil))) WITH (fillfactor = 100)",
                    definedInLayout: 3))
            }
        }
        if !schema.searchableFieldNames.isEmpty {
            indexes.append(SecondaryIndex(
                name: PostgresLayout.fullTextIndex(schema.name), target: "ON \(table) USING gin (\(quote(PostgresLayout.fullTextColumn)))",
                definedInLayout: 3))
        }
        for field in schema.fields {
            guard let elementType = field.type.elementType else { continue }
            let list = quote(PostgresLayout.listTable(schema.name, field: field.name))
            for column in ["value"] + DerivedColumn.memberForms.map({ TableLayout.derivedColumn("value", $0) }) {
                let value = elementType == .bool && column == "value" ? "((value)::integer)" : quote(column)
                indexes.append(SecondaryIndex(
                    name: PostgresLayout.listIndex(schema.name, field: field.name, column: column), target: "ON \(list) (\(value), record)"))
            }
        }
        return indexes
    }

    /// Whether the B-tree of a field (`derived` nil) or of one of its derived columns ends in the
    /// record name: when a sort orders by it, that is, the field is SORTABLE and the column is
    /// the field's own or the one a sort comparison orders by (``DerivedColumn/sortColumn(for:)``:
    /// the case-folded form and the localized keys, never the `[cd]` form). Sorts and ranges of
    /// a field that is not SORTABLE are refused in production mode; in development mode they
    /// still read its index in order, and sort each run of equal values by record name.
    ///
    /// A reference field's own B-tree ends in the record name too: what reads it (a to-one walk,
    /// an inverse to-many, `DELETE_SELF`, `owner == %@`) reads the records of one referenced
    /// record in record-name order, which the index then gives without a sort.
    static func endsInRecordName(_ field: FieldSchema, derived: DerivedColumn?) -> Bool {
        if field.type == .reference, derived == nil { return true }
        guard field.isSortable else { return false }
        guard let derived else { return true }
        return SortComparison.allCases.contains { DerivedColumn.sortColumn(for: $0) == derived }
    }

    /// Whether an index exists, and whether it is valid (a `CREATE INDEX CONCURRENTLY` that
    /// failed or was cut off leaves an invalid one, which no query uses).
    enum IndexState { case missing, invalid, valid }

    /// The state of an index (`pg_index.indisvalid`).
    func state(of index: SecondaryIndex) async throws -> IndexState {
        var state = IndexState.missing
        try await connection.forEachRow(SQLStatement(
            sql: "SELECT indisvalid::integer FROM pg_index WHERE indexrelid = to_regclass($1)", arguments: [.text(quote(index.name))])) { row in
            state = row.value(at: 0) == .integer(1) ? .valid : .invalid
            return false
        }
        return state
    }

    /// Builds the schema's secondary indexes that are missing, and again those that are invalid;
    /// `progress` hears each index. `concurrently` builds without locking writers out
    /// (`CREATE INDEX CONCURRENTLY`), which runs outside any transaction.
    func buildIndexes(_ schema: RecordTypeSchema, concurrently: Bool, progress: StoreOpeningProgressHandler? = nil) async throws {
        let indexes = Self.secondaryIndexes(schema)
        for (built, index) in indexes.enumerated() {
            switch try await state(of: index) {
            case .valid:
                break
            case .invalid:
                try await execute("DROP INDEX \(concurrently ? "CONCURRENTLY " : "")IF EXISTS \(quote(index.name))")
                try await execute(index.createStatement(concurrently: concurrently))
            case .missing:
                try await execute(index.createStatement(concurrently: concurrently))
            }
            progress?(StoreOpeningProgress(task: "Building the indexes of \(schema.name)", completed: built + 1, total: indexes.count, unit: "indexes"))
        }
    }

    /// Whether a table exists and holds a row.
    func isPopulated(_ table: String) async throws -> Bool {
        guard !(try await columns(of: table)).isEmpty else { return false }
        return try await connection.rowCount(SQLStatement(sql: "SELECT 1 FROM \(quote(table)) LIMIT 1")) > 0
    }

    /// Drops what `old` built that `new` no longer asks for (a field's index, derived columns,
    /// a list's members, a location's index, the full-text column when no field is searchable),
    /// and what `new` defines otherwise, and writes the members of lists that become queryable;
    /// ``ensureIndexes(_:)`` builds the rest.
    /// Queries give the same answers before and after; only their plans change.
    func applyIndexChanges(from old: RecordTypeSchema, to new: RecordTypeSchema) async throws {
        let tableName = TableLayout.recordTable(new.name)
        guard !(try await columns(of: tableName)).isEmpty else { return }
        let table = quote(tableName)
        // An index both schemas ask for, defined otherwise (a field that becomes SORTABLE gains
        // the record name at the end of its B-trees): dropped, and built again as `new` defines it.
        let before = Dictionary(Self.secondaryIndexes(old).map { ($0.name, $0.target) }, uniquingKeysWith: { first, _ in first })
        let redefined = Self.secondaryIndexes(new).filter { index in before[index.name].map { $0 != index.target } == true }
        for index in redefined {
            try await execute("DROP INDEX IF EXISTS \(quote(index.name))")
        }
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
        for constraint in old.uniquenessConstraints where !new.uniquenessConstraints.contains(constraint) {
            try await execute("ALTER TABLE \(table) DROP CONSTRAINT IF EXISTS \(quote(TableLayout.uniqueIndex(new.name, fields: constraint)))")
        }
        // Built now, or marked pending on a populated table, as any missing index.
        if !redefined.isEmpty { try await ensureIndexes(new) }
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
            let computed = columns.map { $0.value(of: text) }
            // Folded once: the `[c]` form is among the columns whenever `[cd]` is, unless only `[cd]` is missing.
            let caseFolded = zip(columns, computed).first { $0.0 == .caseFolded }?.1 ?? DerivedColumn.caseFolded.value(of: text)
            let values = zip(columns, computed).map { PostgresLayout.storedForm(of: $1, $0, caseFolded: caseFolded) }
            try await connection.execute(SQLStatement(sql: sql, arguments: values + [.integer(id)]))
        }
    }

    /// Computes the full-text tokens of every row again (after the searchable fields changed).
    func rebuildFullText(_ schema: RecordTypeSchema) async throws {
        let table = quote(TableLayout.recordTable(schema.name))
        let row = quote(PostgresLayout.rowColumn)
        let fields = schema.searchableFieldNames
        guard try await self.columns(of: TableLayout.recordTable(schema.name)).contains(PostgresLayout.fullTextColumn) else { return }
        guard !fields.isEmpty else {
            try await execute("UPDATE \(table) SET \(quote(PostgresLayout.fullTextColumn)) = ''")
            return
        }
        var pending: [(Int64, [String])] = []
        try await connection.forEachRow(SQLStatement(sql: "SELECT \(row), \(fields.map(quote).joined(separator: ", ")) FROM \(table)")) { values in
            guard case .integer(let id) = values.value(at: 0) else { return true }
            var tokens: [String] = []
            for index in fields.indices {
                if case .text(let text) = values.value(at: index + 1) { tokens += FullTextTokenizer.tokens(text) }
            }
            pending.append((id, tokens))
            return true
        }
        for (id, tokens) in pending {
            try await connection.execute(SQLStatement(
                sql: "UPDATE \(table) SET \(quote(PostgresLayout.fullTextColumn)) = $1::tsvector WHERE \(row) = $2",
                arguments: [.text(try PostgresFullText.vectorLiteral(tokens, recordType: schema.name)), .integer(id)]))
        }
    }
}
#endif
