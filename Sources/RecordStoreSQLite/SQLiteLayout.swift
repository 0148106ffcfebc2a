@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL
/// The SQLite engine's own tables beside ``TableLayout``: an FTS5 table per record type with
/// searchable fields. (A location field's index is a B-tree on the record table,
/// ``SQLiteLocationGrid``.)
enum SQLiteLayout {
    /// The FTS5 table of a record type: one document of tokens per row (`rowid` = the record's row).
    static func fullTextTable(_ recordType: String) -> String { "\(recordType)$fts" }
}
