// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

extension PostgresEngine: SiblingRemovingEngine {
    /// Drops the schema of the sibling `name` (``openSibling(named:progress:)``) with everything
    /// in it, under the sibling's store lock, so that no opening of it runs meanwhile. On a
    /// store opened on a standby, the standby refuses the `DROP` (``storeError(_:)``).
    func removeSibling(named name: String) async throws(RecordStoreError) {
        var sibling = location
        let schema = "\(location.schema ?? "public")_\(name)"
        guard schema.utf8.count <= 63 else {
            throw .invalidStoreLocation(location.description, reason: "the schema of its sibling '\(name)', \(schema), would be longer than PostgreSQL's 63 bytes")
        }
        sibling.schema = schema
        let lock = Self.lockKey(sibling)
        do {
            try await withConnection { connection in
                try await connection.execute(SQLStatement(sql: "BEGIN"))
                do {
                    try await connection.execute(SQLStatement(sql: "SELECT pg_advisory_xact_lock($1)", arguments: [.integer(lock)]))
                    try await connection.execute(SQLStatement(sql: "DROP SCHEMA IF EXISTS \(PostgresDialect.quote(schema)) CASCADE"))
                    try await connection.execute(SQLStatement(sql: "COMMIT"))
                } catch {
                    try? await connection.execute(SQLStatement(sql: "ROLLBACK"))
                    throw error
                }
            }
        } catch {
            throw storeError(error)
        }
    }
}
#endif
