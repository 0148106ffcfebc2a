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
///   reader then waits for the writers running at that moment to end (it asks for the lock
///   exclusively, which is granted once they let go, and lets it go at once; at most
///   ``barrierTimeout``), and reads again.
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
    static let barrierTimeout = "5s"

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
                WHERE a.locktype = 'advisory' AND a.granted AND a.objsubid = 1
                    AND a.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                    AND a.classid::bigint = ((snapshot.k >> 32) & 4294967295) AND a.objid::bigint = (snapshot.k & 4294967295)
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
        try await waitForRunningWriters(on: connection, atMost: barrierTimeout)
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

    /// Takes the writers' lock exclusively and lets it go: granted once every writer holding it
    /// now has ended (new writers wait behind the request meanwhile). A wait longer than
    /// `timeout`, when given, gives up quietly (a reader then reads the bound it has).
    static func waitForRunningWriters(on connection: PostgresSQLConnection, atMost timeout: String?) async throws {
        try await connection.execute(SQLStatement(sql: "BEGIN"))
        do {
            if let timeout { try await connection.execute(SQLStatement(sql: "SET LOCAL lock_timeout = '\(timeout)'")) }
            try await connection.execute(SQLStatement(sql: "SELECT pg_advisory_xact_lock(\(writerLockKey))"))
            try await connection.execute(SQLStatement(sql: "COMMIT"))
        } catch {
            try? await connection.execute(SQLStatement(sql: "ROLLBACK"))
            guard PostgresErrorMapping.isLockTimeout(error) else { throw error }
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
