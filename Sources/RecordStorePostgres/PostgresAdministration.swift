// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import PostgresNIO
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Server administration the package's tests need (ending connections, as a restart would).
package enum PostgresAdministration {
    /// Ends every connection with this `application_name`, through a connection of its own.
    package static func terminateConnections(url: String, applicationName: String) async throws {
        let location = try PostgresLocation(url)
        let engine = try await PostgresEngine.open(location)
        try await engine.write { connection in
            try await connection.execute(SQLStatement(
                sql: "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()",
                arguments: [.text(applicationName)]))
        }
    }
}
#endif
