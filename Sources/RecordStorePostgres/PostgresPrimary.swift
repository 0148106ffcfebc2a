// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Logging
import PostgresNIO
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// The store's primary server, among the hosts its URL names (`db1:5432,db2:5432`): the first
/// that answers, or with `target_session_attrs=read-write` the first that is not a standby, as
/// libpq chooses. When the server in use stops answering or turns read-only (a failover: the
/// old primary is gone, or was made a standby), the call fails as in an outage
/// (``RecordStoreError/serverUnavailable(server:reason:)``), the hosts are looked at again in
/// the background, and the next calls use the one that is the primary now: a promoted standby
/// is followed without a restart. With one host this is that host's connections.
///
/// ```swift
/// let server = await PostgresPrimary.firstUsable(location.hostLocations, logger: logger) ?? location
/// let primary = PostgresPrimary(server, candidates: location.hostLocations, poolExecutor: nil, logger: logger)
/// try await primary.withConnection { connection in try await connection.execute(SQLStatement(sql: "SELECT 1")) }
/// ```
final class PostgresPrimary: Sendable {
    /// Each host the URL names, in order.
    let candidates: [PostgresLocation]
    let poolExecutor: (any TaskExecutor)?
    private let logger: Logger
    private let current: LockedState<PostgresServerConnections>
    /// Whether a look for the primary is under way (one at a time).
    private let looking = LockedState(false)

    /// The connections of `location` (one of `candidates`).
    init(_ location: PostgresLocation, candidates: [PostgresLocation], poolExecutor: (any TaskExecutor)?, logger: Logger) {
        self.candidates = candidates
        self.poolExecutor = poolExecutor
        self.logger = logger
        current = LockedState(PostgresServerConnections(location: location, poolExecutor: poolExecutor, logger: logger))
    }

    /// The connections calls use now.
    var connections: PostgresServerConnections { current.withLock { $0 } }

    /// Runs `body` on a connection of the server in use; a failure that says it is gone or
    /// read-only starts a look for the primary among the hosts.
    func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresSQLConnection) async throws -> T) async throws -> T {
        let connections = self.connections
        do {
            return try await connections.withConnection(body)
        } catch {
            if candidates.count > 1, case .serverUnavailable = PostgresErrorMapping.storeError(error, server: connections.location.server) {
                Task(executorPreference: poolExecutor) { await self.lookForPrimary(replacing: connections) }
            }
            throw error
        }
    }

    /// Uses the host that is the primary now, when it is another than `failed`'s.
    private func lookForPrimary(replacing failed: PostgresServerConnections) async {
        guard looking.withLock({ looking in
            defer { looking = true }
            return !looking
        }) else { return }
        defer { looking.withLock { $0 = false } }
        guard let found = await Self.firstUsable(candidates, logger: logger), found.server != failed.location.server else { return }
        let replacement = PostgresServerConnections(location: found, poolExecutor: poolExecutor, logger: logger)
        current.withLock { if $0 === failed { $0 = replacement } }
    }

    /// The first of `candidates` that answers within its connect timeout and, when the URL
    /// requires it, is not a standby (`pg_is_in_recovery()`); nil when none does.
    static func firstUsable(_ candidates: [PostgresLocation], logger: Logger) async -> PostgresLocation? {
        for candidate in candidates {
            // A server that cannot be reached, or does not answer, is not usable.
            guard let inRecovery = try? await candidate.singleValue("SELECT pg_is_in_recovery()", logger: logger) else { continue }
            if !candidate.requiresWritableServer || inRecovery == .integer(0) { return candidate }
        }
        return nil
    }
}
#endif
