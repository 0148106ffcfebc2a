import RecordStore

extension Store {
    /// Opens (creating when needed) the store a location names, choosing the engine by its
    /// scheme: what `RecordStore`'s `Store.open(url:mode:)` opens (a file path, `sqlite:`,
    /// `file:`, `memory:`), and PostgreSQL databases:
    /// `postgres://user:password@host:port/database`, with the optional parameters `sslmode`
    /// (`disable`, `prefer`, `require`), `schema` (a PostgreSQL schema of its own for the store,
    /// created when missing) and `connect_timeout` (seconds, default 10).
    ///
    /// A PostgreSQL store answers only the `async` methods. A server that cannot be reached,
    /// refuses the credentials, or has no such database is
    /// ``RecordStoreError/serverUnavailable(server:reason:)``, within the connect timeout.
    ///
    /// ```swift
    /// import RecordStorePostgres
    ///
    /// let store = try await Store.open(url: "postgres://app:secret@localhost:5432/cities?schema=geo")
    /// let big = try await store.records(RecordQuery(recordType: "City", predicate: "population > 1000000"))
    /// ```
    public static func open(url location: String, mode: SchemaMode = .development) async throws(RecordStoreError) -> Store {
        let parsed = try StoreLocation(location)
        guard case .postgres(let url) = parsed else { return try await openEmbedded(parsed, mode: mode) }
        return Store(engine: try await PostgresEngine.open(PostgresLocation(url)), mode: mode)
    }
}
