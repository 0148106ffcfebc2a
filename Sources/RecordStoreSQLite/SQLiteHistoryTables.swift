import GRDB
@_spi(StorageEngine) import RecordStoreSQL

/// The change history's tables in a SQLite store (``SQLExecutor``'s history functions read and
/// write them): the one-row `$history`, `$tombstones`, `$deletedZones`, and the `position`
/// column of the registry (indexed by zone and position, so a changes call reads a range) and of
/// the zones (with `created`). A store made before the history gains them when opened: its
/// records and zones carry position 0, so a first changes call returns them all.
///
/// ```swift
/// try SQLiteHistoryTables.create(db)   // every open, in the opening transaction
/// ```
enum SQLiteHistoryTables {
    static func create(_ db: Database) throws {
        let quote = SQLiteDialect.quote
        let (registry, zones) = (TableLayout.registryTable, TableLayout.zonesTable)
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS \(quote(TableLayout.historyTable)) (
                id INTEGER PRIMARY KEY CHECK (id = 1), position INTEGER NOT NULL, floor INTEGER NOT NULL);
            INSERT OR IGNORE INTO \(quote(TableLayout.historyTable)) (id, position, floor) VALUES (1, 0, 0);
            CREATE TABLE IF NOT EXISTS \(quote(TableLayout.tombstonesTable)) (
                zone TEXT NOT NULL, recordName TEXT NOT NULL, recordType TEXT NOT NULL, position INTEGER NOT NULL, deletedAt REAL NOT NULL,
                PRIMARY KEY (zone, recordName)) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS \(quote(TableLayout.tombstonesTable + "$position")) ON \(quote(TableLayout.tombstonesTable)) (zone, position, recordName);
            CREATE TABLE IF NOT EXISTS \(quote(TableLayout.deletedZonesTable)) (
                name TEXT PRIMARY KEY NOT NULL, position INTEGER NOT NULL, deletedAt REAL NOT NULL);
            """)
        if try !db.columns(in: registry).contains(where: { $0.name == "position" }) {
            try db.execute(sql: "ALTER TABLE \(quote(registry)) ADD COLUMN position INTEGER NOT NULL DEFAULT 0")
        }
        let zoneColumns = Set(try db.columns(in: zones).map(\.name))
        for column in ["position", "created"] where !zoneColumns.contains(column) {
            try db.execute(sql: "ALTER TABLE \(quote(zones)) ADD COLUMN \(column) INTEGER NOT NULL DEFAULT 0")
        }
        try db.execute(sql: """
            CREATE INDEX IF NOT EXISTS \(quote(registry + "$position")) ON \(quote(registry)) (zone, position, recordName);
            CREATE INDEX IF NOT EXISTS \(quote(zones + "$position")) ON \(quote(zones)) (position, name);
            """)
    }
}
