// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

extension StoreScheme {
    /// PostgreSQL databases: `postgres://user:password@host:port/database` (also
    /// `postgresql://`), with the optional parameters `sslmode` (`disable`, `prefer`, `require`),
    /// `schema` (a PostgreSQL schema of its own for the store, created when missing),
    /// `connect_timeout` (seconds, default 10) and `replica` (`host:port` of a hot standby that
    /// reads go to when it has replayed the primary's writes; repeat it for several). Register
    /// it once, then open such locations with `Store.open(url:)`.
    ///
    /// A PostgreSQL store answers only the `async` methods. A server that cannot be reached,
    /// refuses the credentials, or has no such database is
    /// `RecordStoreError.serverUnavailable`, within the connect timeout. On a hot standby the
    /// store opens read-only, when it exists there: writes and live queries are then
    /// `RecordStoreError.readOnlyStore`.
    ///
    /// ```swift
    /// import RecordStorePostgres
    ///
    /// StoreRegistry.shared.register(.postgres)
    /// let store = try await Store.open(url: "postgres://app:secret@localhost:5432/cities?schema=geo")
    /// let big = try await store.records(ofType: "City", matching: FormatPredicate(format: "population > 1000000"))
    /// ```
    public static let postgres = StoreScheme(
        names: ["postgres", "postgresql"], usage: "postgres://user:password@host:port/database", answersSynchronously: false
    ) { location, progress throws(RecordStoreError) in
        try await PostgresEngine.open(PostgresLocation(location.text), progress: progress)
    }
}
#endif
