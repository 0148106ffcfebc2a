import EngineTestSupport
import Foundation
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL
import RecordStorePostgres
import Testing

/// A real failover: a primary with a synchronous hot standby, both of the test's own
/// (``PrivatePostgresCluster``, so the shared test cluster never sees a server stop); the
/// primary crashes, the standby is promoted, and a store whose URL lists both hosts with
/// `target_session_attrs=read-write` follows it without a restart, losing nothing it
/// acknowledged.
@Suite(.enabled(if: PrivatePostgresCluster.isInstalled || PostgresTestServer.isRequired,
                "PostgreSQL's server programs are not installed (.ci/postgres installs them; CI=true runs this)"))
struct PostgresPromotionTests {
    /// Runs `body` with a new primary and a hot standby streaming from it, then stops both and
    /// removes their folders, also when `body` or the standby's start fails.
    static func withPrimaryAndStandby(_ body: (PrivatePostgresCluster, PrivatePostgresCluster) async throws -> Void) async throws {
        let primary = try await PrivatePostgresCluster.startPrimary()
        let standby: PrivatePostgresCluster
        do {
            standby = try await PrivatePostgresCluster.startStandby(of: primary)
        } catch {
            await primary.stop()
            throw error
        }
        do {
            try await body(primary, standby)
        } catch {
            await standby.stop()
            await primary.stop()
            throw error
        }
        await standby.stop()
        await primary.stop()
    }

    /// Makes the standby synchronous: the primary's commits return only once the standby has
    /// flushed them (`synchronous_standby_names`, `synchronous_commit = on`, set on the primary
    /// alone: the standby's configuration was copied before, so the promoted standby does not
    /// wait for a standby of its own). Returns once the primary reports it synchronous.
    static func makeSynchronous(primary: PrivatePostgresCluster) async throws {
        try await PostgresAdministration.value(url: primary.url, sql: "ALTER SYSTEM SET synchronous_standby_names = '*'")
        try await PostgresAdministration.value(url: primary.url, sql: "ALTER SYSTEM SET synchronous_commit = 'on'")
        try await PostgresAdministration.value(url: primary.url, sql: "SELECT pg_reload_conf()")
        // The reload and the standby's connection have no event to wait for: asked every 50 ms, for up to 30 s.
        for _ in 0..<600 {
            let synchronous = try await PostgresAdministration.value(
                url: primary.url, sql: "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'")
            if synchronous == .integer(1) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the standby did not become synchronous within 30 s")
    }

    @Test("The primary crashes and its synchronous standby is promoted: the store follows it, and every save it acknowledged is there")
    func followsAPromotedStandby() async throws {
        TestEngine.registerEngines()
        try await Self.withPrimaryAndStandby { primary, standby in
            try await Self.makeSynchronous(primary: primary)
            #expect(try await PostgresAdministration.value(url: primary.url, sql: "SHOW synchronous_commit") == .text("on"))
            // The crashed primary's port refuses connections at once; a live server's connection
            // may take seconds on a loaded machine, so the connect timeout stays PostgreSQL's 10 s.
            let url = "postgres://query:query-test-password@127.0.0.1:\(primary.port),127.0.0.1:\(standby.port)/query_test"
                + "?schema=promotion&target_session_attrs=read-write&connect_timeout=10"
            let store = try await Store.open(url: url)
            var acknowledged: [String] = []
            var attempted: [String] = []
            for batch in 0..<10 {
                let names = (0..<5).map { "before-\(batch)-\($0)" }
                attempted += names
                _ = try await store.save(names.map(PostgresFailoverTests.note))
                acknowledged += names
            }
            // Replicated synchronously: the standby already has every acknowledged save.
            #expect(try await PostgresAdministration.value(url: standby.url, sql: "SELECT count(*) FROM promotion.\"Note\"") == .integer(50))

            try await primary.crash()
            // No primary among the hosts: a save fails as in an outage.
            await #expect {
                _ = try await store.save([PostgresFailoverTests.note("while-down")])
            } throws: { error in
                guard case RecordStoreError.serverUnavailable = error else { return false }
                return true
            }
            attempted.append("while-down")

            // pg_promote() returns once the standby is promoted (it waits up to 60 s).
            #expect(try await PostgresAdministration.value(url: standby.url, sql: "SELECT pg_promote()") == .integer(1))
            #expect(try await PostgresAdministration.value(url: standby.url, sql: "SELECT pg_is_in_recovery()") == .integer(0))

            // Until the store has found the promoted standby, saves fail as in an outage; then they succeed.
            let saving = try await PostgresFailoverTests.saveUntilAcknowledged(store)
            attempted += saving.tried
            let saved = try #require(saving.acknowledged)
            acknowledged.append(saved)
            _ = try await store.save([PostgresFailoverTests.note("later")])
            acknowledged.append("later")
            attempted.append("later")

            // Every acknowledged save is there, and nothing that was never saved.
            let found = Set(try await store.records(ofType: "Note", matching: .truePredicate).map(\.recordID.recordName))
            #expect(found.isSuperset(of: acknowledged))
            #expect(found.isSubset(of: attempted))
            #expect(found.count >= 52)
            // Read straight from the promoted standby, without the store.
            #expect(try await PostgresAdministration.value(url: standby.url, sql: "SELECT count(*) FROM promotion.\"Note\"")
                == .integer(Int64(found.count)))
        }
    }
}
