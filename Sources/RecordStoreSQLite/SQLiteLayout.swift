@_spi(StorageEngine) import RecordStoreCore
import RecordStoreSQL
/// The SQLite engine's own tables beside ``TableLayout``: an FTS5 table per record type with
/// searchable fields, and an R*Tree per location field.
enum SQLiteLayout {
    /// The FTS5 table of a record type: one document of tokens per row (`rowid` = the record's row).
    static func fullTextTable(_ recordType: String) -> String { "\(recordType)$fts" }
    /// The R*Tree of a location field: one box (a point) per row (`id` = the record's row).
    static func locationIndexTable(_ recordType: String, field: String) -> String { "\(recordType)$\(field)$rtree" }
}
