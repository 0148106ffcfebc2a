// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Logging
import PostgresNIO
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

extension PostgresLocation {
    /// The first column of the first row `sql` returns (nil when it returns none), through a
    /// connection of its own to this server, opened for the statement and closed after it: for
    /// the questions asked of a server before or beside the store's pool (is it a standby? how
    /// far has it replayed?). Nothing is created, so a standby answers too.
    ///
    /// ```swift
    /// let inRecovery = try await location.singleValue("SELECT pg_is_in_recovery()", logger: logger)   // .integer(0) on a primary
    /// ```
    func singleValue(_ sql: String, logger: Logger) async throws -> SQLValue? {
        let connection = try await PostgresConnection.connect(configuration: try connectionConfiguration(), id: 0, logger: logger)
        do {
            let value = try await PostgresSQLConnection(connection, logger: logger).firstRow(SQLStatement(sql: sql)) { $0.value(at: 0) }
            try? await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
#endif
