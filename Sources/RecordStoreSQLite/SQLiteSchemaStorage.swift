import Foundation
import GRDB
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Creates the store's tables and keeps the record-type tables in step with the schema.
struct SQLiteSchemaStorage {
    private func quote(_ name: String) -> String { SQLiteDialect.quote(name) }

    /// Creates the zones, schema and registry tables when missing.
    func createBaseTables(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS \(quote(TableLayout.zonesTable)) (name TEXT PRIMARY KEY NOT NULL);
            INSERT OR IGNORE INTO \(quote(TableLayout.zonesTable)) (name) VALUES (?);
            CREATE TABLE IF NOT EXISTS \(quote(TableLayout.schemaTable)) (id INTEGER PRIMARY KEY CHECK (id = 1), catalog TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS \(quote(TableLayout.registryTable)) (
                zone TEXT NOT NULL, recordName TEXT NOT NULL, recordType TEXT NOT NULL,
                PRIMARY KEY (zone, recordName)) WITHOUT ROWID;
            """, arguments: [ZoneID.default.zoneName])
        try SQLiteHistoryTables.create(db)
    }

    /// Applies schema changes to the tables: new type tables, columns, indexes and FTS tables
    /// (the catalog itself is stored by the caller).
    func apply(_ changes: [SchemaChange], catalog: SchemaCatalog, _ db: Database) throws {
        for change in changes {
            switch change {
            case .addedRecordType(let recordType):
                try createRecordType(recordType, db)
            case .addedField(let recordType, let field):
                try addField(field, to: recordType, db)
            case .changedFieldType:
                break  // columns have no declared type; the stored values stay exact
            }
        }
        for recordType in Set(changes.map(\.recordType)) {
            guard let schema = catalog.recordTypes[recordType] else { continue }
            try ensureIndexes(schema, db)
        }
    }

    private func createRecordType(_ recordType: String, _ db: Database) throws {
        let table = quote(TableLayout.recordTable(recordType))
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS \(table) (
                \(quote(TableLayout.zoneColumn)) TEXT NOT NULL,
                \(quote(TableLayout.recordNameColumn)) TEXT NOT NULL,
                \(quote(TableLayout.creationDateColumn)) REAL,
                \(quote(TableLayout.modificationDateColumn)) REAL,
                \(quote(TableLayout.changeTagColumn)) TEXT,
                \(quote(TableLayout.creatorColumn)) TEXT,
                \(quote(TableLayout.lastModifierColumn)) TEXT);
            CREATE UNIQUE INDEX IF NOT EXISTS \(quote("\(recordType)$$record")) ON \(table) (\(quote(TableLayout.zoneColumn)), \(quote(TableLayout.recordNameColumn)));
            """)
        try SQLiteListTable(recordType: recordType).create(db, withSearchIndexes: !SQLiteDeferredIndexes(db: db).isDeferred(recordType))
    }

    private func addField(_ field: FieldSchema, to recordType: String, _ db: Database) throws {
        let table = quote(TableLayout.recordTable(recordType))
        let existing = Set(try db.columns(in: TableLayout.recordTable(recordType)).map(\.name))
        if !existing.contains(field.name) {
            try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(quote(field.name))")
        }
        if StoredSpelling.hasColumn(field), !existing.contains(TableLayout.spellingColumn(field.name)) {
            try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(quote(TableLayout.spellingColumn(field.name))) TEXT")
        }
        if field.type == .location {
            for column in [TableLayout.latitudeColumn(field.name), TableLayout.longitudeColumn(field.name)] where !existing.contains(column) {
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(quote(column)) REAL")
            }
        }
    }

    /// Creates the indexes the schema's flags ask for (with the derived columns and their
    /// indexes), and the FTS table when a field is searchable. Each index is `(zone, column,
    /// record name)`: it serves `ORDER BY column ASC, record name ASC` whole, so ties on the
    /// column (many cities of population 1,000) never need a sort step. A location's index is
    /// its band index (``SQLiteLocationGrid``).
    ///
    /// While a bulk load defers the type's indexes (``SQLiteDeferredIndexes``), only the columns
    /// and the FTS table are made; the load's end builds the indexes.
    func ensureIndexes(_ schema: RecordTypeSchema, _ db: Database, progress: StoreOpeningProgressHandler? = nil) throws {
        let deferred = try SQLiteDeferredIndexes(db: db).isDeferred(schema.name)
        let table = quote(TableLayout.recordTable(schema.name))
        let indexedFields = deferred ? [] : schema.fields.filter { $0.isIndexed && !$0.type.isList }
        let reporter = ProgressReporter(task: "Building the indexes of \(schema.name)", total: indexedFields.count, handler: progress, unit: "indexes", everyUnit: true)
        for (built, field) in indexedFields.enumerated() {
            defer { reporter.report(built + 1) }
            if field.type == .location {
                try db.execute(sql: SQLiteLocationGrid.createIndexSQL(recordType: schema.name, field: field.name))
                continue
            }
            try db.execute(sql: """
                CREATE INDEX IF NOT EXISTS \(quote(TableLayout.fieldIndex(schema.name, field: field.name)))
                ON \(table) (\(quote(TableLayout.zoneColumn)), \(quote(field.name)), \(quote(TableLayout.recordNameColumn)))
                """)
        }
        // An index per uniqueness constraint, `(zone, fields...)`, which serves the saves' lookups
        // of conflicting records (``ConstraintResolution``). Not a UNIQUE one: SQLite checks those
        // at each statement, so the order of a save's writes would matter (a record deleted after
        // the writes, two records that exchange values), and it has no deferred unique checks.
        // The check in Swift is enough: it runs inside the write transaction, and SQLite has one
        // writer at a time (a transaction whose snapshot another writer changed cannot write).
        if !deferred {
            for constraint in schema.uniquenessConstraints {
                let columns = ([TableLayout.zoneColumn] + constraint).map(quote).joined(separator: ", ")
                try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(quote(TableLayout.uniqueIndex(schema.name, fields: constraint))) ON \(table) (\(columns))")
            }
        }
        // Derived columns (of new fields, or that a field gains with a flag) are added and filled here.
        try SQLiteDerivedColumns(db: db, progress: progress).ensure(schema, indexes: !deferred)
        if !schema.searchableFieldNames.isEmpty {
            // Full-text search asks only which rows hold any of some tokens (``SQLiteDialect``'s
            // `MATCH "a" OR "b"`, each token one FTS5 token): no positions (`detail=none`) and no
            // per-row token counts for ranking (`columnsize=0`) are kept.
            try db.execute(sql: """
                CREATE VIRTUAL TABLE IF NOT EXISTS \(quote(SQLiteLayout.fullTextTable(schema.name)))
                USING fts5(body, tokenize = 'ascii', detail = none, columnsize = 0)
                """)
        }
    }
}

extension SchemaChange {
    /// The record type a change concerns.
    var recordType: String {
        switch self {
        case .addedRecordType(let name): name
        case .addedField(let name, _): name
        case .changedFieldType(let name, _, _): name
        }
    }
}
