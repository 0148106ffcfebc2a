import EngineTestSupport
import Foundation
import InMemoryTracing
import MetricsTestKit
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL
import RecordStorePostgres
import TestSupport
import Testing
import Tracing

/// Reads through a store with a read replica (`?replica=host:port`, the hot standby `.ci/run`
/// starts): they go to the replica when it has replayed what the primary had written when the
/// read began, and to the primary otherwise, so that no caller, through this store or another
/// over the same primary, ever reads a state older than a write it saw acknowledged. Which
/// server answered is read from each statement's span (`server.address`).
///
/// Serialized: the tests pause the one standby's replay, which every test of the suite sees.
@Suite(.serialized)
struct ReadReplicaTests {
    static let schema = "DEFINE SCHEMA RECORD TYPE Note (title STRING QUERYABLE SORTABLE, rank INT64 QUERYABLE SORTABLE);"

    /// The standby's URL, or a failure under CI when none is configured.
    static func replicaURL() throws -> String {
        guard let url = PostgresTestServer.replicaURL else {
            throw RecordStoreError.serverUnavailable(
                server: "QUERY_TEST_POSTGRES_REPLICA_URL", reason: "CI is set, so the read replica tests must run, but QUERY_TEST_POSTGRES_REPLICA_URL names no standby")
        }
        return url
    }

    /// `host:port/database` of a URL, as the statement spans name servers.
    static func server(of url: String) throws -> String {
        let components = try #require(URLComponents(string: url))
        return "\(components.host ?? "localhost"):\(components.port ?? 5432)\(components.path)"
    }

    /// A fresh store's URL with the standby as its replica. Reads wait up to a second for the
    /// replica to catch up (`replica_wait`, 10 ms by default), so that the suites writing beside
    /// these tests do not send every read to the primary.
    static func storeURL(replica: String) throws -> String {
        let components = try #require(URLComponents(string: replica))
        return try PostgresTestServer.freshStoreURL() + "&replica_wait=1000&replica=\(components.host ?? "localhost"):\(components.port ?? 5432)"
    }

    /// How many reads of a store recording to `metrics` ran by `route` (`query_store_replica_reads_total`).
    static func reads(_ metrics: TestMetrics, _ route: StoreMetrics.ReadRoute) -> Int64 {
        metrics.counterTotal(label: "query_store_replica_reads_total", dimensions: [("route", route.rawValue)])
    }

    static func note(_ name: String, rank: Int64) -> Record {
        Record(recordType: "Note", recordID: RecordID(recordName: name), fields: ["title": .string(name), "rank": .int(rank)])
    }

    /// Waits until the standby has replayed everything the primary has written now (polling:
    /// PostgreSQL 15 has no event for it).
    static func waitForReplay(replica: String) async throws {
        try await PostgresAdministration.waitForReplay(primary: try #require(PostgresTestServer.url), replica: replica)
    }

    /// The servers the `SELECT`s of the traced operations ran on (not counting the WAL
    /// positions asked to choose the server), and forgets them.
    static func selectServers(_ tracer: InMemoryTracer) -> Set<String> {
        defer { tracer.clearFinishedSpans() }
        return Set(tracer.finishedSpans.filter { $0.operationName == "SELECT" }.compactMap { span -> String? in
            guard case .string(let server)? = span.attributes["server.address"]?.toSpanAttribute(),
                  case .string(let sql)? = span.attributes["db.query.text"]?.toSpanAttribute(), !sql.contains("::pg_lsn") else { return nil }
            return server
        })
    }

    /// Reads `count` notes through `store` until the replica answers one (`server` among the
    /// servers its statements ran on), at most 50 times: the tests beside this one keep the
    /// primary writing, so the replica may be a little behind at any moment. False when it never did.
    static func replicaAnswers(_ store: Store, count: Int, server: String, tracer: InMemoryTracer) async throws -> Bool {
        for _ in 0..<50 {
            _ = selectServers(tracer)
            #expect(try await store.records(ofType: "Note", matching: .truePredicate).count == count)
            if selectServers(tracer).contains(server) { return true }
        }
        return false
    }

    @Test("Writes through one store are read at once through it and through another, the replica paused or not; reads go to the replica when it has caught up")
    func readYourWritesThroughOneAndTwoStores() async throws {
        let replica = try Self.replicaURL()
        let url = try Self.storeURL(replica: replica)
        let writer = try await Store.open(url: url)
        let reader = try await Store.open(url: url)
        let tracer = InMemoryTracer()
        reader.traceOperations(with: tracer)
        let metrics = TestMetrics()
        reader.recordMetrics(StoreMetrics(factory: metrics))
        let primaryServer = try Self.server(of: try #require(PostgresTestServer.url))
        let replicaServer = try Self.server(of: replica)
        try await writer.apply(try CloudKitSchemaDocument(parsing: Self.schema))
        _ = try await writer.save((1...4).map { Self.note("n\($0)", rank: Int64($0)) })

        // Caught up: the reader's queries are answered by the replica.
        try await Self.waitForReplay(replica: replica)
        _ = Self.selectServers(tracer)
        let query = try RecordQuery(recordType: "Note", predicate: .truePredicate, sorts: [Sort("rank")])
        #expect(try await Self.replicaAnswers(reader, count: 4, server: replicaServer, tracer: tracer))
        let first = try await reader.records(matching: query, resultsLimit: 2)
        #expect(first.records.map(\.recordID.recordName) == ["n1", "n2"])
        let token = try await reader.changes(in: .default).token
        #expect(Self.reads(metrics, .replica) >= 1)
        let replicaReadsBeforePause = Self.reads(metrics, .replica)
        let behindBeforePause = Self.reads(metrics, .primaryReplicaBehind)

        // Replay paused: what the writer saves next is not on the replica, and every read
        // through either store still sees it (the primary answers).
        try await PostgresAdministration.value(url: replica, sql: "SELECT pg_wal_replay_pause()")
        do {
            _ = try await writer.save([Self.note("n5", rank: 5)])
            for store in [writer, reader] {
                let all = try await store.records(ofType: "Note", matching: .truePredicate)
                #expect(all.count == 5)
            }
            // The primary answered (the reader may have tried the replica first, on a guess it then threw away).
            #expect(Self.selectServers(tracer).contains(primaryServer))
            // A cursor made on the replica continues with the new record.
            let rest = try await reader.records(continuingMatchFrom: try #require(first.cursor), resultsLimit: 10)
            #expect(rest.records.map(\.recordID.recordName) == ["n3", "n4", "n5"])
            // A sync token made on the replica is followed by the new record.
            let changes = try await reader.changes(in: .default, since: token)
            #expect(changes.changedRecords.map(\.recordID.recordName) == ["n5"])
            // The replica itself still lacks it: the reads above did not come from it.
            let onReplica = try await PostgresAdministration.value(url: replica, sql: "SELECT count(*) FROM \(try Self.schemaName(url)).\"Note\"")
            #expect(onReplica == .integer(4))
            // The metric says so too: none of the reader's reads ran on the replica, and those
            // that asked it went to the primary because it was behind.
            #expect(Self.reads(metrics, .replica) == replicaReadsBeforePause)
            #expect(Self.reads(metrics, .primaryReplicaBehind) > behindBeforePause)
            #expect(Self.reads(metrics, .primaryReplicaUnavailable) == 0)
        } catch {
            try await PostgresAdministration.value(url: replica, sql: "SELECT pg_wal_replay_resume()")
            throw error
        }
        try await PostgresAdministration.value(url: replica, sql: "SELECT pg_wal_replay_resume()")

        // Resumed and caught up: the replica answers again.
        try await Self.waitForReplay(replica: replica)
        #expect(try await Self.replicaAnswers(reader, count: 5, server: replicaServer, tracer: tracer))
    }

    @Test("Change reads and backups find their bound on the primary and read on a replica that has caught up")
    func changesAndBackupsReadOnTheReplica() async throws {
        let replica = try Self.replicaURL()
        let url = try Self.storeURL(replica: replica)
        let store = try await Store.open(url: url)
        let metrics = TestMetrics()
        store.recordMetrics(StoreMetrics(factory: metrics))
        try await store.apply(try CloudKitSchemaDocument(parsing: Self.schema))
        _ = try await store.save([Self.note("n1", rank: 1), Self.note("n2", rank: 2)])
        let token = try await store.changes(in: .default).token
        _ = try await store.save([Self.note("n3", rank: 3)])
        try await Self.waitForReplay(replica: replica)

        // At most 50 reads: the tests beside this one keep the primary writing, so the replica
        // may be a little behind at any moment (a read then goes to the primary).
        var readOnReplica = false
        for _ in 0..<50 where !readOnReplica {
            let before = Self.reads(metrics, .replica)
            let changes = try await store.changes(in: .default, since: token)
            #expect(changes.changedRecords.map(\.recordID.recordName) == ["n3"])
            readOnReplica = Self.reads(metrics, .replica) > before
        }
        #expect(readOnReplica, "no change read ran on the replica")

        var backedUpOnReplica = false
        var backup: (path: String, manifest: StoreBackupManifest)?
        let folder = TestFolders.make("replica-backups")
        for attempt in 0..<20 where !backedUpOnReplica {
            let before = Self.reads(metrics, .replica)
            let path = folder.appendingPathComponent("backup-\(attempt)").path
            backup = (path, try await store.backup(to: path))
            backedUpOnReplica = Self.reads(metrics, .replica) > before
        }
        #expect(backedUpOnReplica, "no backup ran on the replica")
        // The backup holds every record, and continues the history: a token of the store is
        // followed on the restored store with nothing missed.
        let (path, manifest) = try #require(backup)
        let restored = try await Store.restore(from: path, to: PostgresTestServer.freshStoreURL())
        let records = try await restored.records(ofType: "Note", matching: .truePredicate, sorts: [Sort("rank")])
        #expect(records.map(\.recordID.recordName) == ["n1", "n2", "n3"])
        #expect(manifest.historyPosition > 0)
        let followed = try await restored.changes(in: .default, since: token)
        #expect(followed.changedRecords.map(\.recordID.recordName) == ["n3"])
    }

    @Test("A replica that goes away is skipped for the primary, and answers again once it is back")
    func replicaOutage() async throws {
        let replica = try Self.replicaURL()
        let components = try #require(URLComponents(string: replica))
        let relay = try TCPRelay(upstreamPort: try #require(components.port))
        let url = try PostgresTestServer.freshStoreURL() + "&replica_wait=1000&replica=127.0.0.1:\(relay.port)"
        let store = try await Store.open(url: url)
        let tracer = InMemoryTracer()
        store.traceOperations(with: tracer)
        let metrics = TestMetrics()
        store.recordMetrics(StoreMetrics(factory: metrics))
        let relayServer = "127.0.0.1:\(relay.port)\(components.path)"
        let primaryServer = try Self.server(of: try #require(PostgresTestServer.url))
        try await store.apply(try CloudKitSchemaDocument(parsing: Self.schema))
        _ = try await store.save([Self.note("a", rank: 1), Self.note("b", rank: 2)])
        try await Self.waitForReplay(replica: replica)
        #expect(try await Self.replicaAnswers(store, count: 2, server: relayServer, tracer: tracer))

        relay.cut()
        for _ in 0..<3 {
            #expect(try await store.records(ofType: "Note", matching: .truePredicate).count == 2)
        }
        // The primary answered (the first read tried the replica, which refused).
        #expect(Self.selectServers(tracer).contains(primaryServer))
        #expect(Self.reads(metrics, .primaryReplicaUnavailable) >= 3)

        try relay.restore()
        // The replica is tried again once its retry interval has passed; until then the primary answers.
        // (At most 100 tries, 100 ms apart: ten times the retry interval.)
        var answered = false
        for _ in 0..<100 where !answered {
            answered = try await Self.replicaAnswers(store, count: 2, server: relayServer, tracer: tracer)
            if !answered { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(answered)
    }

    /// The store's PostgreSQL schema, quoted, from its URL's `schema` parameter.
    static func schemaName(_ url: String) throws -> String {
        let components = try #require(URLComponents(string: url))
        let schema = try #require(components.queryItems?.first { $0.name == "schema" }?.value)
        return "\"\(schema)\""
    }
}
