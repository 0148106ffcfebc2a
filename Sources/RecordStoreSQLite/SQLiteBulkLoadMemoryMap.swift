import GRDB

/// The writer connection reads the database file through a memory map while a bulk load runs
/// (``SQLiteDeferredIndexes``): the inserts' B-tree lookups and, above all, the deferred index
/// builds, each a full scan of the record table, then read pages in place rather than copying
/// each one out of the operating system's cache with a `pread` call. Writes still go to the WAL
/// file as always (SQLite writes through a map only when built to), so durability is the same;
/// the map is dropped again when the load ends, and readers never use one.
///
/// ```swift
/// try SQLiteBulkLoadMemoryMap.begin(db)   // with the first batch
/// // ... batches, then the deferred indexes ...
/// try SQLiteBulkLoadMemoryMap.end(db)
/// ```
enum SQLiteBulkLoadMemoryMap {
    /// The most bytes of the file mapped (SQLite caps it further at its compile-time maximum,
    /// 2 GB in the usual builds; a larger file is read past the map as usual).
    static let bytes = 1 << 30

    /// Maps the file for the connection's reads.
    static func begin(_ db: Database) throws {
        try db.execute(sql: "PRAGMA mmap_size = \(bytes)")
    }

    /// Drops the map: the connection reads with `pread` again, as it did before the load.
    static func end(_ db: Database) throws {
        try db.execute(sql: "PRAGMA mmap_size = 0")
    }
}
