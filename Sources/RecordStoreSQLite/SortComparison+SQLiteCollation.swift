@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL
extension SortComparison {
    /// The name of the SQLite collation registered for this comparison (nil for `.compare`,
    /// which is SQLite's `BINARY`).
    var collationName: String? {
        self == .compare ? nil : "query_\(rawValue)"
    }
}
