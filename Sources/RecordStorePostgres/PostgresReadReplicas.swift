// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// The read replicas of a PostgreSQL store: hot standbys streaming from its primary (the URL's
/// `replica` parameters), which take the store's reads off the primary without ever answering
/// from an older state than the primary's.
///
/// A read goes to a replica only when the replica had replayed the primary's WAL up to where
/// the primary had written it when the read began (`pg_current_wal_insert_lsn()`): the read
/// then sees every write acknowledged before it, by this server or any other over the same
/// primary. So read-your-writes holds across servers without a session, and so do cursors and
/// sync tokens (a token never names a state the replica has not reached). What it costs the
/// primary is that one position per read, asked while the replica already reads:
///
/// - the replica's replayed position is remembered (it only grows); when it already covers the
///   primary's, the replica's answer, read at once, is the answer;
/// - otherwise the replica is asked where it is now, and the read runs there once it has
///   caught up, within ``replayWait`` (10 ms unless the URL says otherwise), or else on the primary (replay paused, or a long lag);
/// - a replica that fails (down, restarting, a query cancelled by recovery) is skipped for the
///   primary, and found again by itself when it answers (``PostgresReachability``).
///
/// Each read is counted by where it ran (`query_store_replica_reads_total`, by `route`:
/// `replica`, `primary_replica_behind`, `primary_replica_unavailable`), so an operator sees how
/// much of the read load the replicas take and why the rest did not go there.
///
/// Writes, and everything in a write's transaction, use the primary. So do live queries and
/// subscriptions, which follow the primary's notifications (`LISTEN` does not work on a standby).
///
/// ```swift
/// let store = try await Store.open(url: "postgres://app:secret@primary/cities?replica=standby1:5432&replica=standby2:5432")
/// ```
final class PostgresReadReplicas: Sendable {
    /// One replica and what is known of it.
    final class Replica: Sendable {
        let connections: PostgresServerConnections
        /// A WAL position the replica is known to have replayed (positions only grow).
        private let replayed = LockedState<Int64>(0)

        init(_ connections: PostgresServerConnections) {
            self.connections = connections
        }

        var knownReplayed: Int64 { replayed.withLock { $0 } }

        /// Asks the replica where its replay is, and remembers it; nil when it is not a standby
        /// any more (promoted) or does not answer.
        func currentReplayed() async -> Int64? {
            guard let position = try? await connections.withConnection({ connection in
                try await PostgresReadReplicas.position("pg_last_wal_replay_lsn()", on: connection)
            }) else { return nil }
            return replayed.withLock { known in
                known = max(known, position)
                return known
            }
        }
    }

    let replicas: [Replica]
    /// The replica the next read tries first: they take turns.
    private let turn = LockedState(0)
    /// The last primary position a read required, and whether this store wrote since: a
    /// replica known to be behind it (or after a write) is asked where it is before it reads,
    /// rather than reading on a guess that would be thrown away.
    private let lastRequired = LockedState<(position: Int64, wroteSince: Bool)>((0, false))

    /// How long a read waits for a replica behind the position it requires (the URL's
    /// `replica_wait`, 10 ms by default): a replica under a steady write load is usually a
    /// millisecond or two behind the primary's latest position, which a read that waits that
    /// long can still use.
    let replayWait: Duration

    init(_ servers: [PostgresServerConnections], replayWait: Duration) {
        replicas = servers.map(Replica.init)
        self.replayWait = replayWait
    }

    /// A WAL position as a number of bytes: `SELECT (f - '0/0')::bigint`; nil for a null position.
    static func position(_ function: String, on connection: PostgresSQLConnection) async throws -> Int64? {
        let value = try await connection.firstRow(SQLStatement(sql: "SELECT (\(function) - '0/0'::pg_lsn)::bigint")) { $0.value(at: 0) }
        if case .integer(let position)? = value { return position }
        return nil
    }

    /// Whether the store has replicas (or reads on the primary alone).
    var exist: Bool { !replicas.isEmpty }

    /// Runs the read `body` on a replica that has replayed everything the primary had written
    /// when the read began, or on the primary.
    ///
    /// A body with effects outside the database (a backup's files) says `runsOnce`: it is not
    /// run on a replica on a guess, and a replica's failure while it runs is its error, where
    /// another read would run again on the primary.
    func read<T: Sendable>(
        primary: PostgresPrimary, runsOnce: Bool = false, _ body: @escaping @Sendable (PostgresSQLConnection) async throws -> T
    ) async throws -> T {
        guard !replicas.isEmpty else { return try await primary.withConnection(body) }
        let metrics = StoreMetrics.current
        let replica = replicas[turn.withLock { turn in
            defer { turn = (turn + 1) % replicas.count }
            return turn
        }]
        async let primaryPosition = primary.withConnection { connection in
            try await Self.position("pg_current_wal_insert_lsn()", on: connection)
        }
        let known = replica.knownReplayed
        // Likely caught up: read at once, and keep the answer if the position covers it (the
        // replica had replayed `known` before this read's snapshot was taken).
        let likelyCaughtUp = lastRequired.withLock { !$0.wroteSince && known >= $0.position }
        let speculative: T? = if likelyCaughtUp && !runsOnce { try? await replica.connections.withConnection(body) } else { nil }
        let required = try await primaryPosition ?? .max
        note(required)
        if known >= required, let speculative {
            metrics?.recordRead(.replica)
            return speculative
        }
        let (answer, route) = try await readAfterCheck(replica, required: required, primary: primary, runsOnce: runsOnce, body)
        metrics?.recordRead(route)
        return answer
    }

    /// Asks the replica where it is (again every millisecond, up to ``replayWait``), then reads
    /// there once it has replayed `required`, or on the primary; with where the read ran.
    private func readAfterCheck<T: Sendable>(
        _ replica: Replica, required: Int64, primary: PostgresPrimary, runsOnce: Bool,
        _ body: @escaping @Sendable (PostgresSQLConnection) async throws -> T
    ) async throws -> (T, StoreMetrics.ReadRoute) {
        let deadline = ContinuousClock.now + replayWait
        let route: StoreMetrics.ReadRoute
        while true {
            guard let replayed = await replica.currentReplayed() else {
                route = .primaryReplicaUnavailable
                break
            }
            if replayed >= required {
                do {
                    return (try await replica.connections.withConnection(body), .replica)
                } catch {
                    // A body that must run once fails with the replica; another runs on the primary.
                    if runsOnce { throw error }
                }
                route = .primaryReplicaUnavailable
                break
            }
            guard ContinuousClock.now < deadline else {
                route = .primaryReplicaBehind
                break
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        return (try await primary.withConnection(body), route)
    }

    private func note(_ required: Int64) {
        lastRequired.withLock { $0 = (max($0.position, required), false) }
    }

    /// This store committed a write: the replicas are likely behind it until a read asks.
    func noteWrite() {
        guard !replicas.isEmpty else { return }
        lastRequired.withLock { $0.wroteSince = true }
    }
}
#endif
