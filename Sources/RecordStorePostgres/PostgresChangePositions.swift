// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Change positions on PostgreSQL without a store-wide lock: a commit's position is its
/// transaction ID (`txid_current()`, which never repeats in a cluster) plus the store's
/// `xidBase`, and a reader of changes reads only the positions no running writer can still
/// come in under.
///
/// Positions taken so do not grow in commit order: a writer that got its transaction ID first
/// may commit last. So:
///
/// - **Writers register.** Every transaction that writes to the store takes a shared advisory
///   lock of the store (``registration``) before its first write, which is when PostgreSQL gives
///   it a transaction ID. A save folds it into its first statement, the catalog read
///   (``PostgresWriteTransaction``); the engine's other writes take it right after `BEGIN`.
///   Shared, it keeps no writer from another.
/// - **Readers read up to a bound** (``ChangeBound``), found by one statement run before the
///   reader's snapshot: the snapshot's `xmax`, lowered to the oldest transaction ID of the
///   registered writers still running (`pg_locks`: the holders of that lock, and the
///   transaction-ID locks of the same transactions). Every position at or under the bound belongs
///   to a transaction that has ended, so the reader's later snapshot sees all of them: a writer
///   running then held the lock, and bounds the read; one that had not taken its ID yet gets
///   one above the snapshot's `xmax`. Unrelated transactions (another store, another database
///   of the cluster) never hold the bound back.
/// - **Read-your-writes.** When a registered writer with an older transaction ID is still
///   running, the bound is under every commit after that ID, the caller's own among them; the
///   reader then waits for the writers that hold the bound back to end (at most
///   ``barrierTimeout``, ``waitForRunningWriters(on:holdingTransactionIDs:atMost:)``), and
///   reads again. It waits by watching them, not by asking for the writers' lock: PostgreSQL
///   queues every later request of a lock behind a waiting one, so a reader asking for it
///   while a long import runs would hold every new writer of the store up too.
/// - **On a standby** no lock of the primary is visible; the bound is then the snapshot's
///   `xmin` (everything under it has ended), which any long transaction of the cluster holds
///   back: the standby's changes can lag while one runs, never skip.
/// - **Zones** keep the greatest position of their commits (a commit of an older transaction
///   ID does not lower it), so the database's changes name a zone again whenever a later
///   bound reaches it.
/// - **`xidBase`** makes new positions exceed every stored one: positions of a store made
///   before (a counter) and those of a backup restored into another cluster, whose transaction
///   IDs start lower (``raiseBaseStatement(atLeast:)``, at every opening and after a restore).
///
/// ```swift
/// let bound = try await PostgresChangePositions.bound(on: connection)   // before BEGIN
/// try await executor.history(of: zone, after: place, limit: 100, recordTypes: nil, bound: bound.position, on: connection)
/// ```
enum PostgresChangePositions {
    /// The key of the writers' advisory lock, in SQL: the store's database and schema.
    static let writerLockKey = "hashtextextended('query-store-writers:' || current_database() || ':' || current_schema(), 0)"

    /// The expression that registers a writer (a shared transaction-level advisory lock).
    static let registration = "pg_advisory_xact_lock_shared(\(writerLockKey))"

    /// The statement that registers a writer on its own.
    static let registrationStatement = SQLStatement(sql: "SELECT \(registration)")

    /// A commit's change position: the store's base plus the transaction's ID (one the
    /// transaction keeps; taking it gives the transaction an ID when it has none yet).
    static var positionExpression: String {
        "((SELECT xidBase FROM \(PostgresDialect.quote(TableLayout.historyTable)) WHERE id = 1) + txid_current())"
    }

    /// How long a reader waits for the writers running before it (``bound(on:)``).
    static let barrierTimeout = Duration.seconds(5)

    /// The condition on a `pg_locks` row (alias `a`) that it is a registered writer's hold of the
    /// writers' lock (whose key is the SQL expression `key`): the store's running writers.
    static func registeredWriter(key: String) -> String {
        """
        a.locktype = 'advisory' AND a.granted AND a.objsubid = 1
            AND a.database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND a.classid::bigint = ((\(key) >> 32) & 4294967295) AND a.objid::bigint = (\(key) & 4294967295)
        """
    }

    /// A reader's bound, and what it learned on the way.
    struct ChangeBound: Sendable {
        /// The last position the reader may read: every one at or under it is committed.
        let position: Int64
        /// The history's floor (`SQLExecutor.pruneHistory(deletedBefore:on:)`).
        let floor: Int64
    }

    /// The bound statement's result.
    private struct Reading {
        let bound: Int64
        let horizon: Int64
        let floor: Int64
        let inRecovery: Bool
    }

    /// The statement that reads the bound, outside any transaction: `xmax - 1` of its
    /// snapshot lowered under the oldest registered writer still running (their transaction IDs
    /// are 32-bit in `pg_locks`: each is widened with the snapshot's epoch), or `xmin - 1` on a
    /// standby; with `xmax - 1` (what the bound would be without running writers) and the floor.
    static var boundStatement: SQLStatement {
        let history = PostgresDialect.quote(TableLayout.historyTable)
        return SQLStatement(sql: """
            WITH snapshot AS (SELECT txid_current_snapshot() AS s, \(writerLockKey) AS k),
            writers AS (
                SELECT ((txid_snapshot_xmax(snapshot.s) - x.transactionid::text::bigint) % 4294967296 + 4294967296) % 4294967296 AS age
                FROM snapshot, pg_locks AS a
                JOIN pg_locks AS x ON x.virtualtransaction = a.virtualtransaction AND x.locktype = 'transactionid' AND x.granted
                WHERE \(registeredWriter(key: "snapshot.k"))
            )
            SELECT CASE WHEN pg_is_in_recovery() THEN txid_snapshot_xmin(snapshot.s)
                        ELSE least(txid_snapshot_xmax(snapshot.s),
                                   txid_snapshot_xmax(snapshot.s) - (SELECT max(age) FROM writers WHERE age BETWEEN 1 AND 2147483648))
                   END - 1 + h.xidBase,
                   txid_snapshot_xmax(snapshot.s) - 1 + h.xidBase, h.floor, pg_is_in_recovery()
            FROM snapshot, \(history) AS h WHERE h.id = 1
            """)
    }

    /// The bound of a reader about to begin its snapshot on `connection` (outside any
    /// transaction). On a primary where an older registered writer still runs, it first waits
    /// for the writers running now to end (at most ``barrierTimeout``), so that a caller's own
    /// commits are under the bound it reads.
    static func bound(on connection: PostgresSQLConnection) async throws -> ChangeBound {
        let first = try await read(on: connection)
        guard !first.inRecovery, first.bound < first.horizon else { return ChangeBound(position: first.bound, floor: first.floor) }
        try await waitForRunningWriters(on: connection, holdingTransactionIDs: true, atMost: barrierTimeout)
        let second = try await read(on: connection)
        return ChangeBound(position: second.bound, floor: second.floor)
    }

    private static func read(on connection: PostgresSQLConnection) async throws -> Reading {
        let row = try await connection.firstRow(boundStatement) { row in
            (row.value(at: 0), row.value(at: 1), row.value(at: 2), row.value(at: 3))
        }
        guard let (bound, horizon, floor, recovery) = row, case .integer(let position) = bound,
              case .integer(let top) = horizon, case .integer(let lowest) = floor else {
            throw RecordStoreError.storage("the store's change history table has no row")
        }
        return Reading(bound: position, horizon: top, floor: lowest, inRecovery: recovery == .integer(1))
    }

    /// Waits until the store's writers running now have ended: those holding a transaction ID
    /// when `holdingTransactionIDs` (the ones that hold a reader's bound back), or all of them
    /// (a listener's barrier, for the writers that looked for listeners before it registered).
    /// Returns false when `timeout` passed first (a reader then reads the bound it has).
    ///
    /// It takes no lock, so no writer waits for it: it reads the writers' virtual transaction IDs
    /// (`pg_locks`), then asks how many of those transactions still hold their own
    /// (`virtualxid`) lock, every 1 ms at first and at most every 20 ms: PostgreSQL tells no
    /// client when another's transaction ends but through a lock, and asking for the writers'
    /// lock would queue every new writer behind the request.
    ///
    /// ```swift
    /// try await PostgresChangePositions.waitForRunningWriters(on: connection, holdingTransactionIDs: true, atMost: .seconds(5))   // true
    /// ```
    @discardableResult
    static func waitForRunningWriters(
        on connection: PostgresSQLConnection, holdingTransactionIDs: Bool, atMost timeout: Duration?
    ) async throws -> Bool {
        let transactionIDHolders = holdingTransactionIDs
            ? "JOIN pg_locks AS x ON x.virtualtransaction = a.virtualtransaction AND x.locktype = 'transactionid' AND x.granted" : ""
        var running: [SQLValue] = []
        try await connection.forEachRow(SQLStatement(sql: """
            SELECT DISTINCT a.virtualtransaction FROM pg_locks AS a \(transactionIDHolders)
            WHERE \(registeredWriter(key: writerLockKey)) AND a.pid <> pg_backend_pid()
            """)) { row in
            if case .text = row.value(at: 0) { running.append(row.value(at: 0)) }
            return true
        }
        guard !running.isEmpty else { return true }
        let placeholders = running.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
        let stillRunning = SQLStatement(
            sql: "SELECT count(*) FROM pg_locks WHERE locktype = 'virtualxid' AND virtualxid IN (\(placeholders))", arguments: running)
        let deadline = timeout.map { ContinuousClock.now + $0 }
        var pause = Duration.milliseconds(1)
        while true {
            let left = try await connection.firstRow(stillRunning) { $0.value(at: 0) }
            if case .integer(0)? = left { return true }
            if let deadline, ContinuousClock.now + pause > deadline { return false }
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(20))
        }
    }

    /// Raises `xidBase` so that every position taken from now on exceeds every stored one and
    /// `position` (a restored backup's): `xidBase + txid_current()` of a later transaction is
    /// then above them. Zones keep their commits' greatest positions, so the zones' and deleted
    /// zones' positions, and the counter of a store made before, bound every stored one.
    static func raiseBaseStatement(atLeast position: Int64 = 0) -> SQLStatement {
        let quote = PostgresDialect.quote
        let (history, zones, deletedZones) = (quote(TableLayout.historyTable), quote(TableLayout.zonesTable), quote(TableLayout.deletedZonesTable))
        return SQLStatement(sql: """
            UPDATE \(history) SET xidBase = greatest(xidBase, greatest(position, $1::bigint,
                (SELECT coalesce(max(position), 0) FROM \(zones)), (SELECT coalesce(max(position), 0) FROM \(deletedZones))) - txid_current() + 1)
            WHERE id = 1
            """, arguments: [.integer(position)])
    }
}
#endif
