import EngineTestSupport
import Foundation
import Logging
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL
@testable import RecordStorePostgres
import Testing

/// A standby cancels a query that holds what replaying the primary's changes needs (a lock, a
/// row version) once `max_standby_streaming_delay` has passed: "canceling statement due to
/// conflict with recovery". A store opened on the standby runs such a read again, with a new
/// snapshot, rather than failing it.
@Suite(.enabled(if: PostgresTestServer.replicaURL != nil || PostgresTestServer.isRequired, "QUERY_TEST_POSTGRES_REPLICA_URL is not set"))
struct PostgresRecoveryConflictTests {
    /// Holds an `ACCESS EXCLUSIVE` lock of `tables` in a transaction on the primary (`engine`'s,
    /// at `url`), from when `locked` is told until `release` ends.
    static func holdLocks(
        _ tables: [String], on engine: PostgresEngine, url: String, locked: AsyncStream<Void>.Continuation, release: AsyncStream<Void>
    ) -> Task<Void, any Error> {
        Task {
            try await engine.primary.connections.client.withConnection { connection in
                let sql = PostgresSQLConnection(connection, logger: Logger(label: "test.locks"))
                try await sql.execute(SQLStatement(sql: "BEGIN"))
                try await sql.execute(SQLStatement(sql: "LOCK TABLE \(tables.joined(separator: ", ")) IN ACCESS EXCLUSIVE MODE"))
                // A commit flushes the WAL that holds the lock, so the standby gets it now.
                _ = try await PostgresAdministration.value(url: url, sql: "SELECT txid_current()")
                locked.yield()
                locked.finish()
                for await _ in release { break }
                try await sql.execute(SQLStatement(sql: "COMMIT"))
            }
        }
    }

    /// Waits until `sql` answers true on `url`, asking every 10 ms (the servers have no event
    /// for it), at most `seconds`; false when it never did.
    static func waitUntil(_ sql: String, on url: String, seconds: Int = 30) async throws -> Bool {
        for _ in 0..<(seconds * 100) {
            if try await PostgresAdministration.value(url: url, sql: sql) == .integer(1) { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    @Test("A read of a store on the standby that the replay cancels runs again and answers")
    func aReadTheReplayCancelsRunsAgain() async throws {
        let replica = try ReadReplicaTests.replicaURL()
        let url = try PostgresTestServer.freshStoreURL()
        let schema = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "schema" }?.value)
        let primary = try await Store.open(url: url)
        try await primary.apply(try CloudKitSchemaDocument(parsing: PostgresStandbyStoreTests.schema))
        _ = try await primary.save((1...5).map { PostgresStandbyStoreTests.note("n\($0)", rank: Int64($0)) })
        try await PostgresAdministration.waitForReplay(primary: url, replica: replica)
        let standby = try await Store.open(url: try PostgresStandbyStoreTests.onStandby(url))

        // How long the replay lets a query stand in its way (`.ci/postgres` starts the standby
        // with 1 s; PostgreSQL's default is 30 s).
        guard case .integer(let delay)? = try await PostgresAdministration.value(
            url: replica, sql: "SELECT setting::bigint FROM pg_settings WHERE name = 'max_standby_streaming_delay'"), delay >= 0 else {
            Issue.record("the standby never cancels a query for its replay (max_standby_streaming_delay = -1)")
            return
        }
        let engine = try await PostgresEngine.open(try PostgresLocation(url))
        let note = "\"\(schema)\".\"Note\""
        // The primary locks Note: the standby's replay takes the lock, and the store's first read
        // waits for it, holding the tables it read the catalog from.
        let (noteLocked, noteLock) = AsyncStream<Void>.makeStream()
        let (noteReleased, releaseNote) = AsyncStream<Void>.makeStream()
        let first = Self.holdLocks([note], on: engine, url: url, locked: noteLock, release: noteReleased)
        for await _ in noteLocked { break }
        try await PostgresAdministration.waitForReplay(primary: url, replica: replica)
        let read = Task { try await standby.count(ofType: "Note", matching: .truePredicate) }
        #expect(try await Self.waitUntil("SELECT (count(*) > 0)::int FROM pg_locks WHERE NOT granted AND relation = to_regclass('\(note)')", on: replica),
                "the standby's read did not wait for the replayed lock")
        // The read's transaction: its backend and when it began.
        let transaction = try await PostgresAdministration.value(url: replica, sql: """
            SELECT pid || ' ' || xact_start FROM pg_stat_activity
                WHERE pid = (SELECT pid FROM pg_locks WHERE NOT granted AND relation = to_regclass('\(note)') LIMIT 1)
            """)
        guard case .text(let waiting)? = transaction else {
            Issue.record("the waiting read's transaction was not found")
            return
        }

        // The primary locks the store's other tables: the replay needs one the read holds, and
        // the standby cancels the read.
        let others = try await engine.write { connection in
            var names: [String] = []
            try await connection.forEachRow(SQLStatement(
                sql: "SELECT format('%I.%I', schemaname, tablename) FROM pg_tables WHERE schemaname = $1 AND tablename <> 'Note' ORDER BY 1",
                arguments: [.text(schema)])) { row in
                if case .text(let name) = row.value(at: 0) { names.append(name) }
                return true
            }
            return names
        }
        let (othersLocked, othersLock) = AsyncStream<Void>.makeStream()
        let (othersReleased, releaseOthers) = AsyncStream<Void>.makeStream()
        let second = Self.holdLocks(others, on: engine, url: url, locked: othersLock, release: othersReleased)
        for await _ in othersLocked { break }
        // The standby ends that transaction (a new one may be waiting: the read's next run).
        let cancelled = try await Self.waitUntil(
            "SELECT (count(*) = 0)::int FROM pg_stat_activity WHERE pid || ' ' || xact_start = '\(waiting)'", on: replica, seconds: Int(delay / 1000) + 30)
        releaseNote.finish()
        releaseOthers.finish()
        try await first.value
        try await second.value

        #expect(cancelled, "the standby did not cancel the read")
        // Cancelled, the read ran again once the locks were gone.
        #expect(try await read.value == 5)
    }
}
