extension Store {
    /// Empties the store called `name` beside this one (``openSibling(named:mode:schemaLimits:progress:)``):
    /// every record, zone, record type, index and change of its history goes; the next
    /// ``openSibling(named:mode:schemaLimits:progress:)`` opens it anew, empty. A store opened
    /// on that sibling before must not be used after. `query serve` resets its development
    /// environment so.
    ///
    /// | engine | the sibling `development` is emptied by |
    /// |---|---|
    /// | SQLite | erasing the file `cities.development.sqlite` in place (an empty database copied over it) |
    /// | PostgreSQL | `DROP SCHEMA geo_development CASCADE` |
    /// | memory | forgetting the store in memory |
    ///
    /// A name that is not a sibling's (1 to 32 ASCII lower-case letters and digits), and an
    /// engine that keeps no store beside its own, is ``RecordStoreError/invalidStoreLocation(_:reason:)``.
    ///
    /// ```swift
    /// let production = try await Store.open(url: "sqlite:cities.sqlite")
    /// try await production.removeSibling(named: "development")
    /// let development = try await production.openSibling(named: "development")   // empty
    /// ```
    public func removeSibling(named name: String) async throws(RecordStoreError) {
        guard (1...32).contains(name.utf8.count), name.utf8.allSatisfy({ (97...122).contains($0) || (48...57).contains($0) }) else {
            throw .invalidStoreLocation("the store '\(name.prefix(40))' beside a \(engine.name) store", reason: "a sibling's name is 1 to 32 ASCII lower-case letters and digits")
        }
        guard let engine = engine as? any SiblingRemovingEngine else {
            throw .invalidStoreLocation("the store '\(name)' beside a \(engine.name) store", reason: "the engine cannot remove the stores beside its own")
        }
        try await engine.removeSibling(named: name)
    }
}
