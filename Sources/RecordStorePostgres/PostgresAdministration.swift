// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Logging
import PostgresNIO
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Server administration the package's tests need (ending connections, as a restart would;
/// pausing a replica's replay).
package enum PostgresAdministration {
    /// The first column of the first row `sql` returns, through a connection of its own to the
    /// server `url` names (a standby too: nothing is created).
    ///
    /// ```swift
    /// try await PostgresAdministration.value(url: replicaURL, sql: "SELECT pg_wal_replay_pause()")
    /// ```
    @discardableResult
    package static func value(url: String, sql: String) async throws -> SQLValue? {
        let location = try PostgresLocation(url)
        let logger = Logger(label: "query.postgres.administration")
        let connection = try await PostgresConnection.connect(configuration: try location.connectionConfiguration(), id: 0, logger: logger)
        do {
            let value = try await PostgresSQLConnection(connection, logger: logger).firstRow(SQLStatement(sql: sql)) { $0.value(at: 0) }
            try? await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }

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
