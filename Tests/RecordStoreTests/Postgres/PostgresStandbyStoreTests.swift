import EngineTestSupport
import Foundation
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
import RecordStorePostgres
import Testing

/// A store opened on a hot standby (the one `.ci/run` starts beside the shared server) is
/// read-only: it reads what the primary wrote, with the primary's cursors, and refuses every
/// write and live observation with `RecordStoreError.readOnlyStore`; a store that does not
/// exist there, or a URL that asks for a writable server, is refused at opening.
@Suite(.enabled(if: PostgresTestServer.replicaURL != nil || PostgresTestServer.isRequired, "QUERY_TEST_POSTGRES_REPLICA_URL is not set"))
struct PostgresStandbyStoreTests {
    static let schema = "DEFINE SCHEMA RECORD TYPE Note (title STRING QUERYABLE SORTABLE, rank INT64 QUERYABLE SORTABLE);"
    static let trips = ZoneID(zoneName: "Trips")

    static func note(_ name: String, rank: Int64, zone: ZoneID = .default) -> Record {
        Record(recordType: "Note", recordID: RecordID(recordName: name, zoneID: zone), fields: ["title": .string(name), "rank": .int(rank)])
    }

    /// `url` with its host and port replaced by the standby's.
    static func onStandby(_ url: String) throws -> String {
        let standby = try #require(URLComponents(string: try ReadReplicaTests.replicaURL()))
        var components = try #require(URLComponents(string: url))
        components.host = standby.host
        components.port = standby.port
        return try #require(components.string)
    }

    /// `host:port/database` of the standby, as errors name it.
    static func standbyServer() throws -> String {
        try ReadReplicaTests.server(of: try ReadReplicaTests.replicaURL())
    }

    /// A fresh store on the primary with notes 1 to 5 in the default zone and one in `Trips`,
    /// and its URL on the standby, once the standby has replayed them.
    static func storeOnPrimary() async throws -> (primary: Store, standbyURL: String) {
        let url = try PostgresTestServer.freshStoreURL()
        let primary = try await Store.open(url: url)
        try await primary.apply(try CloudKitSchemaDocument(parsing: Self.schema))
        try await primary.createZone(Self.trips)
        _ = try await primary.save((1...5).map { Self.note("n\($0)", rank: Int64($0)) } + [Self.note("t1", rank: 1, zone: Self.trips)])
        try await ReadReplicaTests.waitForReplay(replica: try ReadReplicaTests.replicaURL())
        return (primary, try Self.onStandby(url))
    }

    /// The error a write through a store on the standby throws.
    static func writeRefusal() throws -> RecordStoreError {
        .readOnlyStore(
            server: try Self.standbyServer(),
            reason: "it was opened on a standby (a server in recovery), which takes no writes: write through a store opened on the primary")
    }

    /// How a call ended: nil, or its error (one that is not a store error, as `storage`).
    static func failure(_ body: () async throws -> Void) async -> RecordStoreError? {
        do {
            try await body()
            return nil
        } catch let error as RecordStoreError {
            return error
        } catch {
            return .storage("not a store error: \(error)")
        }
    }

    @Test("A store opened on the standby reads what the primary wrote, and continues the primary's cursors and change tokens")
    func readsWhatThePrimaryWrote() async throws {
        let (primary, standbyURL) = try await Self.storeOnPrimary()
        let standby = try await Store.open(url: standbyURL)

        #expect(try await standby.count(ofType: "Note", matching: .truePredicate) == 5)
        #expect(try await standby.count(ofType: "Note", matching: .truePredicate, zone: Self.trips) == 1)
        let big = try await standby.records(ofType: "Note", matching: FormatPredicate(format: "rank >= 4"))
        #expect(Set(big.map(\.recordID.recordName)) == ["n4", "n5"])
        #expect(try await standby.record(for: RecordID(recordName: "n2"))?["title"] == .string("n2"))
        #expect(try await standby.zones() == [.default, Self.trips])
        #expect(try await standby.schema(for: "Note")?.fields.map(\.name).contains("rank") == true)

        // A cursor made on the primary continues on the standby (the same cursor key).
        let query = try RecordQuery(recordType: "Note", predicate: .truePredicate, sorts: [Sort("rank")])
        let first = try await primary.records(matching: query, resultsLimit: 2)
        #expect(first.records.map(\.recordID.recordName) == ["n1", "n2"])
        let rest = try await standby.records(continuingMatchFrom: try #require(first.cursor), resultsLimit: 10)
        #expect(rest.records.map(\.recordID.recordName) == ["n3", "n4", "n5"])

        // So does a change token: the standby answers what the primary saved after it.
        let token = try await primary.changes(in: .default).token
        _ = try await primary.save([Self.note("n6", rank: 6)])
        try await ReadReplicaTests.waitForReplay(replica: try ReadReplicaTests.replicaURL())
        // A standby reads changes up to its snapshot's oldest running transaction (no lock of the
        // primary is visible there): while a transaction of the tests beside this one that began
        // before n6's runs, the standby answers nothing new. It never skips.
        var changes = try await standby.changes(in: .default, since: token)
        for _ in 0..<600 where changes.changedRecords.isEmpty {
            try await Task.sleep(for: .milliseconds(50))
            changes = try await standby.changes(in: .default, since: token)
        }
        #expect(changes.changedRecords.map(\.recordID.recordName) == ["n6"])
        #expect(try await standby.changes(in: .default).changedRecords.count == 6)
    }

    @Test("Every write through a store on the standby is refused with readOnlyStore, and nothing is written")
    func refusesWrites() async throws {
        let (primary, standbyURL) = try await Self.storeOnPrimary()
        let standby = try await Store.open(url: standbyURL)
        let refusal = try Self.writeRefusal()
        #expect(refusal.description == "The store on \(try Self.standbyServer()) is read-only: it was opened on a standby (a server in recovery), "
            + "which takes no writes: write through a store opened on the primary")

        #expect(await Self.failure { _ = try await standby.save([Self.note("new", rank: 9)]) } == refusal)
        #expect(await Self.failure { _ = try await standby.save([Self.note("n1", rank: 10)]) } == refusal)
        #expect(await Self.failure { try await standby.delete([RecordID(recordName: "n1")]) } == refusal)
        #expect(await Self.failure { try await standby.createZone(ZoneID(zoneName: "Other")) } == refusal)
        #expect(await Self.failure { try await standby.deleteZone(Self.trips) } == refusal)
        #expect(await Self.failure {
            try await standby.define(RecordTypeSchema(name: "Other", fields: [FieldSchema(name: "name", type: .string)]))
        } == refusal)
        #expect(await Self.failure { try await standby.optimize() } == refusal)
        #expect(await Self.failure { _ = try await standby.pruneHistory() } == refusal)
        // Refused by the standby itself (SQLSTATE 25006), answered the same way.
        #expect(await Self.failure { try await standby.removeSibling(named: "development") } == refusal)

        // The primary has what it had.
        #expect(try await primary.count(ofType: "Note", matching: .truePredicate) == 5)
        #expect(try await primary.record(for: RecordID(recordName: "n1"))?["rank"] == .int(1))
        #expect(try await primary.zones() == [.default, Self.trips])
        #expect(try await primary.schema(for: "Other") == nil)
    }

    @Test("Observing a store on the standby is refused with readOnlyStore: a standby runs no LISTEN")
    func refusesObservation() async throws {
        let (_, standbyURL) = try await Self.storeOnPrimary()
        let standby = try await Store.open(url: standbyURL)
        let query = try RecordQuery(recordType: "Note", predicate: .truePredicate, sorts: [Sort("rank")])
        let expected = RecordStoreError.readOnlyStore(
            server: try Self.standbyServer(),
            reason: "it was opened on a standby (a server in recovery), where a live query cannot hear other clients' commits "
                + "(LISTEN does not run during recovery): observe through a store opened on the primary")
        #expect(await Self.failure {
            for try await _ in standby.observe(query) {}
        } == expected)
    }

    @Test("A store that does not exist on the standby is refused at opening, saying so")
    func refusesAMissingStore() async throws {
        let url = try Self.onStandby(try PostgresTestServer.freshStoreURL())
        let schema = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "schema" }?.value)
        let expected = RecordStoreError.serverUnavailable(
            server: try Self.standbyServer(),
            reason: "the server is a standby, read-only, and the store (schema \(schema)) does not exist on it: make it by opening "
                + "it on the primary; once the standby has replayed that, the store opens here, read-only")
        #expect(await Self.failure { _ = try await Store.open(url: url) } == expected)
    }

    @Test("Several hosts, the standby first: with any the store opens read-only on the standby, with read-write on the primary")
    func hostListTakesTheFirstThatAnswers() async throws {
        let (_, standbyURL) = try await Self.storeOnPrimary()
        let standby = try #require(URLComponents(string: standbyURL))
        let primaryURL = try #require(PostgresTestServer.url)
        let primary = try #require(URLComponents(string: primaryURL))
        let hosts = "\(standby.host ?? "localhost"):\(standby.port ?? 5432),\(primary.host ?? "localhost"):\(primary.port ?? 5432)"
        let single = "@\(standby.host ?? "localhost"):\(standby.port ?? 5432)/"
        #expect(standbyURL.contains(single))
        let url = standbyURL.replacingOccurrences(of: single, with: "@\(hosts)/")

        let any = try await Store.open(url: url)
        #expect(try await any.count(ofType: "Note", matching: .truePredicate) == 5)
        let refusal = try Self.writeRefusal()
        #expect(await Self.failure { _ = try await any.save([Self.note("n7", rank: 7)]) } == refusal)

        let readWrite = try await Store.open(url: url + "&target_session_attrs=read-write")
        _ = try await readWrite.save([Self.note("n7", rank: 7)])
        #expect(try await readWrite.count(ofType: "Note", matching: .truePredicate) == 6)
    }

    @Test("A URL that asks for a writable server, or names replicas, never opens on the standby")
    func refusesWritableAndReplicaURLs() async throws {
        let (_, standbyURL) = try await Self.storeOnPrimary()
        let writable = RecordStoreError.serverUnavailable(
            server: try Self.standbyServer(),
            reason: "the server is a standby, read-only, and the URL asks for a writable one (target_session_attrs=read-write): open the store on the primary")
        #expect(await Self.failure { _ = try await Store.open(url: standbyURL + "&target_session_attrs=read-write") } == writable)

        let failure = await Self.failure { _ = try await Store.open(url: standbyURL + "&replica=127.0.0.1:1") }
        guard case .invalidStoreLocation(_, let reason)? = failure else {
            Issue.record("expected invalidStoreLocation, got \(String(describing: failure))")
            return
        }
        #expect(reason == "the server is a standby: a store opened on it reads there, read-only, and takes no replica parameter; "
            + "open the store on the primary to read from its replicas")
    }
}
