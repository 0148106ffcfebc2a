@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL
extension Store {
    /// Opens (creating when needed) a SQLite store at a file path. A file written by an older
    /// version is brought to the current layout first, in one transaction; `progress` hears how
    /// that goes (the `query` tool draws it on a terminal).
    ///
    /// ```swift
    /// let store = try Store.open(path: "./query.sqlite")
    /// ```
    public static func open(
        path: String, mode: SchemaMode = .development, progress: StoreOpeningProgressHandler? = nil
    ) throws(RecordStoreError) -> Store {
        Store(engine: try SQLiteEngine(path: path, progress: progress), mode: mode)
    }

    /// Opens a SQLite store whose planner never calls back into Swift from SQL (no `query_test`,
    /// `query_distance` nor Swift collations), as a database server cannot: what SQL cannot
    /// answer exactly becomes a superset condition plus the residual predicate. The test suites
    /// run it beside the other engines, so that the fallback a server engine relies on is checked
    /// on every behaviour.
    ///
    /// ```swift
    /// let store = try Store.openPortableSQLite(path: "/tmp/portable.sqlite")
    /// ```
    package static func openPortableSQLite(path: String, mode: SchemaMode = .development) throws(RecordStoreError) -> Store {
        Store(engine: try SQLiteEngine(path: path, evaluatorCallbacks: false), mode: mode)
    }
}
