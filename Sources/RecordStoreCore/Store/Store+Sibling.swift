extension Store {
    /// Opens (creating when needed) the store called `name` beside this one: the same engine,
    /// with storage of its own (its records, schema, write lock and change feed), which the same
    /// name finds again. `query serve` keeps its development environment in the sibling
    /// `development` of the store it serves.
    ///
    /// | engine | the sibling `development` of |  is |
    /// |---|---|---|
    /// | SQLite | `cities.sqlite` | the file `cities.development.sqlite` beside it |
    /// | PostgreSQL | `postgres://…/db?schema=geo` (no `schema`: `public`) | the schema `geo_development` of the same database |
    /// | memory | a store in memory | a store in memory that this one keeps |
    ///
    /// `name` is 1 to 32 ASCII lower-case letters and digits; any other name, and an engine
    /// that keeps no store beside its own, is ``RecordStoreError/invalidStoreLocation(_:reason:)``.
    /// `progress` hears how opening goes, as when a store is opened by location.
    ///
    /// ```swift
    /// let production = try await Store.open(url: "sqlite:cities.sqlite")
    /// let development = try await production.openSibling(named: "development")   // cities.development.sqlite
    /// ```
    public func openSibling(
        named name: String, mode: SchemaMode = .development, schemaLimits: SchemaLimits = .unlimited,
        progress: StoreOpeningProgressHandler? = nil
    ) async throws(RecordStoreError) -> Store {
        guard (1...32).contains(name.utf8.count), name.utf8.allSatisfy({ (97...122).contains($0) || (48...57).contains($0) }) else {
            throw .invalidStoreLocation("the store '\(name.prefix(40))' beside a \(engine.name) store", reason: "a sibling's name is 1 to 32 ASCII lower-case letters and digits")
        }
        return Store(engine: try await engine.openSibling(named: name, progress: progress), mode: mode, schemaLimits: schemaLimits)
    }
}
