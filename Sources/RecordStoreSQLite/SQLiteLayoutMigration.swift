import Foundation
import GRDB
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Brings a database file written by an earlier version of the engine to the current layout,
/// when the store opens, in the opening transaction. The layout version is kept in the
/// `$metadata` table (`layoutVersion`); a new store starts at the current version.
///
/// Versions:
/// - 0: lists stored in the record's row as their member count, members only in the list table.
/// - 1: lists stored whole in the row as typed JSON (members also in the list table, for queries).
/// - 2: string fields have their ``DerivedColumn``s (folded forms and collation sort keys), and
///   string list members their folded forms in the list table, indexed; field indexes end with
///   the record name.
/// - 3: string fields have their spelling column (``StoredSpelling``: the client's text when it
///   is not in NFC), added null: the strings stored before were all put in NFC.
/// - 4: record tables and the registry store the default zone as the empty string
///   (``TableLayout/zoneKey(_:)``), no longer by its name.
/// - 5: a queryable location field is indexed by a B-tree on its latitude band and longitude
///   (``SQLiteLocationGrid``), no longer by an R*Tree table.
/// - 6: record tables have the creator and last modifier columns (``TableLayout/creatorColumn``,
///   ``TableLayout/lastModifierColumn``), added null: no record saved before named its author.
///
/// Whatever the version, the sort keys are computed again when ICU's collation version differs
/// from the one that made them.
///
/// ```swift
/// try SQLiteLayoutMigration.migrate(db, catalog: catalog)
/// ```
enum SQLiteLayoutMigration {
    /// The layout this version of the engine writes.
    static let currentVersion: Int64 = 6

    /// Migrates the database to ``currentVersion`` when it is older.
    static func migrate(_ db: Database, catalog: SchemaCatalog, progress: StoreOpeningProgressHandler? = nil) throws {
        let derivedColumns = SQLiteDerivedColumns(db: db, progress: progress)
        let stored = try SQLiteStoreMetadata(db: db).value(named: versionName, as: Int64.self)
        if stored == nil, catalog.recordTypes.isEmpty {
            try derivedColumns.refreshSortKeys(catalog)
            return try setVersion(currentVersion, db)
        }
        let version = stored ?? 0
        if version < currentVersion {
            if version < 1 { try storeListsInline(db, catalog: catalog) }
            if version < 2 {
                for schema in catalog.sorted {
                    // Field indexes gain the record name as their last column; derived columns
                    // are added, filled and indexed.
                    for field in schema.fields {
                        try db.execute(sql: "DROP INDEX IF EXISTS \(SQLiteDialect.quote(TableLayout.fieldIndex(schema.name, field: field.name)))")
                    }
                    try SQLiteSchemaStorage().ensureIndexes(schema, db, progress: progress)
                    if try db.tableExists(TableLayout.listTable(schema.name)) {
                        let list = SQLiteListTable(recordType: schema.name)
                        try list.addFoldedColumns(db, progress: progress)
                        try list.createSearchIndexes(db)
                    }
                }
            }
            if version < 3 { try addSpellingColumns(db, catalog: catalog) }
            if version < 4 { try storeDefaultZoneAsKey(db, catalog: catalog) }
            if version < 5 { try replaceLocationRTrees(db, catalog: catalog, progress: progress) }
            if version < 6 { try addAuthorColumns(db, catalog: catalog) }
            try setVersion(currentVersion, db)
        }
        try derivedColumns.refreshSortKeys(catalog)
    }

    /// The name of the layout version in `$metadata`.
    private static let versionName = "layoutVersion"

    private static func setVersion(_ version: Int64, _ db: Database) throws {
        try SQLiteStoreMetadata(db: db).setValue(version, named: versionName)
    }

    /// Version 3 to 4: the default zone's rows and registry entries hold its key, the empty
    /// string, instead of its name.
    private static func storeDefaultZoneAsKey(_ db: Database, catalog: SchemaCatalog) throws {
        let arguments: StatementArguments = [TableLayout.zoneKey(.default), ZoneID.default.zoneName]
        for schema in catalog.sorted where try db.tableExists(TableLayout.recordTable(schema.name)) {
            let zone = SQLiteDialect.quote(TableLayout.zoneColumn)
            try db.execute(
                sql: "UPDATE \(SQLiteDialect.quote(TableLayout.recordTable(schema.name))) SET \(zone) = ? WHERE \(zone) = ?", arguments: arguments)
        }
        try db.execute(sql: "UPDATE \(SQLiteDialect.quote(TableLayout.registryTable)) SET zone = ? WHERE zone = ?", arguments: arguments)
    }

    /// Version 4 to 5: each location field's R*Tree table is dropped, and a queryable one gets
    /// its band index, built from the rows' points (with the other indexes, which exist: only a
    /// missing one is built).
    private static func replaceLocationRTrees(_ db: Database, catalog: SchemaCatalog, progress: StoreOpeningProgressHandler?) throws {
        for schema in catalog.sorted where try db.tableExists(TableLayout.recordTable(schema.name)) {
            let locations = schema.fields.filter { $0.type == .location }
            guard !locations.isEmpty else { continue }
            for field in locations {
                try db.execute(sql: "DROP TABLE IF EXISTS \(SQLiteDialect.quote(SQLiteLocationGrid.formerRTreeTable(schema.name, field: field.name)))")
            }
            try SQLiteSchemaStorage().ensureIndexes(schema, db, progress: progress)
        }
    }

    /// Version 5 to 6: the creator and last modifier columns of every record table, null.
    private static func addAuthorColumns(_ db: Database, catalog: SchemaCatalog) throws {
        for schema in catalog.sorted {
            let table = TableLayout.recordTable(schema.name)
            guard try db.tableExists(table) else { continue }
            let existing = Set(try db.columns(in: table).map(\.name))
            for column in [TableLayout.creatorColumn, TableLayout.lastModifierColumn] where !existing.contains(column) {
                try db.execute(sql: "ALTER TABLE \(SQLiteDialect.quote(table)) ADD COLUMN \(SQLiteDialect.quote(column)) TEXT")
            }
        }
    }

    /// Version 2 to 3: a spelling column for every string field, null (no data is rewritten).
    private static func addSpellingColumns(_ db: Database, catalog: SchemaCatalog) throws {
        for schema in catalog.sorted {
            let table = TableLayout.recordTable(schema.name)
            guard try db.tableExists(table) else { continue }
            let existing = Set(try db.columns(in: table).map(\.name))
            for field in schema.fields where StoredSpelling.hasColumn(field) && !existing.contains(TableLayout.spellingColumn(field.name)) {
                try db.execute(sql: "ALTER TABLE \(SQLiteDialect.quote(table)) ADD COLUMN \(SQLiteDialect.quote(TableLayout.spellingColumn(field.name))) TEXT")
            }
        }
    }

    /// Version 0 to 1: every list column that holds a member count gets the list as JSON,
    /// read from the list table.
    private static func storeListsInline(_ db: Database, catalog: SchemaCatalog) throws {
        for schema in catalog.sorted {
            let table = SQLiteDialect.quote(TableLayout.recordTable(schema.name))
            let listTable = SQLiteDialect.quote(TableLayout.listTable(schema.name))
            for field in schema.fields {
                guard let elementType = field.type.elementType else { continue }
                let column = SQLiteDialect.quote(field.name)
                let rowIDs = try Int64.fetchAll(db, sql: "SELECT rowid FROM \(table) WHERE typeof(\(column)) = 'integer'")
                for rowID in rowIDs {
                    let members = try DatabaseValue.fetchAll(
                        db, sql: "SELECT value FROM \(listTable) WHERE record = ? AND field = ? ORDER BY position",
                        arguments: [rowID, field.name])
                    let list = Value.list(members.map { StoredValueEncoding.decode(SQLiteValueConversion.value($0), as: elementType) })
                    try db.execute(sql: "UPDATE \(table) SET \(column) = ? WHERE rowid = ?", arguments: [list.jsonText(), rowID])
                }
            }
        }
    }
}
