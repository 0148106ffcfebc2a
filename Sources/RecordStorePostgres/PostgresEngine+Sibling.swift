// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
@_spi(StorageEngine) import RecordStoreCore

extension PostgresEngine {
    /// The store called `name` beside this one: the schema `SCHEMA_NAME` of the same database
    /// (`public_development` beside a store in the default schema), created when missing, with
    /// its own tables, lock and change channel, reached through the same server and options.
    func openSibling(named name: String, progress: StoreOpeningProgressHandler?) async throws(RecordStoreError) -> any StorageEngine {
        var sibling = location
        let schema = "\(location.schema ?? "public")_\(name)"
        guard schema.utf8.count <= 63 else {
            throw .invalidStoreLocation(location.description, reason: "the schema of its sibling '\(name)', \(schema), would be longer than PostgreSQL's 63 bytes")
        }
        sibling.schema = schema
        return try await PostgresEngine.open(sibling, poolExecutor: poolExecutor, progress: progress)
    }
}
#endif
