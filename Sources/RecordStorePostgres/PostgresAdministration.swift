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
        try await PostgresLocation(url).singleValue(sql, logger: Logger(label: "query.postgres.administration"))
    }

    /// Waits until the standby `replica` has replayed everything the primary `primary` has
    /// written when it is called, asking every `interval` (PostgreSQL 15 has no event for it).
    ///
    /// ```swift
    /// try await store.save(records)
    /// try await PostgresAdministration.waitForReplay(primary: primaryURL, replica: replicaURL)
    /// ```
    package static func waitForReplay(primary: String, replica: String, interval: Duration = .milliseconds(20)) async throws {
        /// A WAL position as a number of bytes, or nil (a primary has no replay position).
        func position(_ function: String, on url: String) async throws -> Int64? {
            guard case .integer(let bytes)? = try await value(url: url, sql: "SELECT (\(function) - '0/0'::pg_lsn)::bigint") else { return nil }
            return bytes
        }
        guard let target = try await position("pg_current_wal_insert_lsn()", on: primary) else {
            throw RecordStoreError.storage("the server \(primary) did not give its WAL position")
        }
        while try await position("pg_last_wal_replay_lsn()", on: replica).map({ $0 < target }) ?? true {
            try await Task.sleep(for: interval)
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
