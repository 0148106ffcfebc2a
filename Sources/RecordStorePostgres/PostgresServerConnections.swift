// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import Logging
import PostgresNIO
@_spi(StorageEngine) import RecordStoreCore

/// The connections of one PostgreSQL server a store uses, the primary or a read replica: its
/// PostgresNIO pool, and whether the server answers (``PostgresReachability``).
///
/// ```swift
/// let primary = PostgresServerConnections(location: location, poolExecutor: nil, logger: logger)
/// let count = try await primary.withConnection { connection in
///     try await connection.firstRow(SQLStatement(sql: "SELECT 1")) { $0.value(at: 0) }
/// }
/// ```
final class PostgresServerConnections: Sendable {
    let location: PostgresLocation
    /// Whether the server answers; while it does not, calls fail at once.
    let reachability: PostgresReachability
    let client: PostgresClient
    let poolExecutor: (any TaskExecutor)?
    private let runTask: Task<Void, Never>
    private let logger: Logger

    /// How long calls fail at once after the server was found unreachable, before one tries again.
    static let reachabilityRetryInterval: Duration = .seconds(1)

    /// Starts the server's connection pool (connections are made as calls need them).
    init(location: PostgresLocation, poolExecutor: (any TaskExecutor)?, logger: Logger) {
        self.location = location
        self.poolExecutor = poolExecutor
        self.logger = logger
        reachability = PostgresReachability(server: location.server, retryInterval: Self.reachabilityRetryInterval)
        let client = PostgresClient(configuration: location.configuration(), backgroundLogger: logger)
        self.client = client
        runTask = Task(executorPreference: poolExecutor) { await client.run() }
    }

    deinit {
        runTask.cancel()
    }

    /// Runs `body` on a leased connection. Waiting for a connection longer than the connect
    /// timeout (the server is down, or every connection is busy) fails with
    /// ``RecordStoreError/serverUnavailable(server:reason:)`` instead of waiting forever, and so
    /// does a call whose connection the server closed under it (PostgresNIO can leave such a
    /// query waiting; a watchdog looks every second). Once a call found no connection, the
    /// next calls fail at once until the server answers again (``PostgresReachability``).
    func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresSQLConnection) async throws -> T) async throws -> T {
        if let refusal = reachability.refusal() { throw refusal }
        let client = self.client
        let logger = self.logger
        let leased = LockedState<PostgresConnection?>(nil)
        let server = location.server
        let timeout = location.connectTimeout
        let noConnection = "no connection could be made within \(timeout) (is the server running?)"
        let pool = StoreMetrics.current?.pool
        let requested = ContinuousClock.now
        do {
            let result = try await withWatchdog(every: min(timeout, .seconds(1)), executor: poolExecutor) { waited in
                guard let connection = leased.withLock({ $0 }) else {
                    return waited < timeout ? nil : RecordStoreError.serverUnavailable(server: server, reason: noConnection)
                }
                return connection.isClosed ? RecordStoreError.serverUnavailable(
                    server: server, reason: "the server closed the connection; nothing of the interrupted call was committed unless it had finished") : nil
            } body: {
                try await client.withConnection { connection in
                    leased.withLock { $0 = connection }
                    if let pool {
                        pool.wait.recordElapsed(since: requested)
                        pool.inUse.increment()
                    }
                    defer { pool?.inUse.decrement() }
                    return try await body(PostgresSQLConnection(connection, logger: logger, server: server))
                }
            }
            reachability.reached()
            return result
        } catch {
            if leased.withLock({ $0 }) == nil {
                pool?.timeouts.increment()
                if case RecordStoreError.serverUnavailable(_, let reason) = PostgresErrorMapping.storeError(error, server: server) {
                    reachability.unreachable(reason: reason)
                }
            } else {
                reachability.reached()
            }
            throw error
        }
    }
}
#endif
