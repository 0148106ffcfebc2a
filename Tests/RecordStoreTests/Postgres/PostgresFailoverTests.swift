import EngineTestSupport
import Foundation
import InMemoryTracing
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
import RecordStorePostgres
import Testing
import Tracing

/// A store whose URL names several hosts (`db1:5432,db2:5432`, as libpq reads them) uses the
/// primary among them, and follows it to another host when the one in use goes away, as
/// servers must when a standby is promoted and the old primary is gone: no restart, calls in
/// between answered as in an outage, nothing acknowledged lost.
struct PostgresFailoverTests {
    /// A fresh store's URL with its host replaced by `hosts` (`host:port,host:port`).
    static func storeURL(hosts: String, parameters: String = "") throws -> String {
        let fresh = try PostgresTestServer.freshStoreURL()
        let components = try #require(URLComponents(string: fresh))
        let single = "@\(components.host ?? "localhost"):\(components.port ?? 5432)/"
        #expect(fresh.contains(single))
        return fresh.replacingOccurrences(of: single, with: "@\(hosts)/") + parameters
    }

    static func note(_ name: String) -> Record {
        Record(recordType: "Note", recordID: RecordID(recordName: name), fields: ["title": .string(name)])
    }

    @Test("Naming a standby first and the primary second: read-write opens on the primary, any refuses the standby")
    func readWriteSkipsTheStandby() async throws {
        let replicaURL = try ReadReplicaTests.replicaURL()
        let primaryURL = try #require(PostgresTestServer.url)
        let replica = try #require(URLComponents(string: replicaURL))
        let primary = try #require(URLComponents(string: primaryURL))
        let hosts = "\(replica.host ?? "localhost"):\(replica.port ?? 5432),\(primary.host ?? "localhost"):\(primary.port ?? 5432)"
        let store = try await Store.open(url: try Self.storeURL(hosts: hosts, parameters: "&target_session_attrs=read-write"))
        _ = try await store.save([Self.note("a"), Self.note("b")])
        #expect(try await store.count(ofType: "Note", matching: .truePredicate) == 2)

        // Without read-write, the first host that answers is used: a standby, where the store
        // cannot make its tables. The refusal says so, as an unavailable server.
        await #expect {
            _ = try await Store.open(url: try Self.storeURL(hosts: hosts))
        } throws: { error in
            guard case RecordStoreError.serverUnavailable(_, let reason) = error else { return false }
            return reason.contains("standby")
        }
    }

    @Test("When the host in use stops answering, the store moves to the next one by itself, losing nothing acknowledged")
    func followsThePrimaryToAnotherHost() async throws {
        let primaryURL = try #require(PostgresTestServer.url)
        let primaryPort = try #require(URLComponents(string: primaryURL)?.port)
        // Two ways to the same server: cutting the first is the old primary going away, the
        // second is the promoted standby.
        let first = try TCPRelay(upstreamPort: primaryPort)
        let second = try TCPRelay(upstreamPort: primaryPort)
        let url = try Self.storeURL(hosts: "127.0.0.1:\(first.port),127.0.0.1:\(second.port)", parameters: "&target_session_attrs=read-write")
        let store = try await Store.open(url: url)
        let tracer = InMemoryTracer()
        store.traceOperations(with: tracer)
        var acknowledged = ["before"]
        _ = try await store.save([Self.note("before")])

        first.cut()
        // Until the store has found the other host, saves fail as in an outage; then they succeed.
        var saved = false
        for attempt in 0..<100 where !saved {
            let name = "after-\(attempt)"
            var outcome: RecordStoreError?
            do throws(RecordStoreError) {
                _ = try await store.save([Self.note(name)])
            } catch {
                outcome = error
            }
            switch outcome {
            case nil:
                acknowledged.append(name)
                saved = true
            case .serverUnavailable?:
                try await Task.sleep(for: .milliseconds(100))
            case let other?:
                Issue.record("a save during the failover failed otherwise: \(other)")
                return
            }
        }
        #expect(saved)
        let found = try await store.records(ofType: "Note", matching: .truePredicate).map(\.recordID.recordName)
        #expect(Set(found) == Set(acknowledged))
        let servers = Set(tracer.finishedSpans.compactMap { span -> String? in
            guard case .string(let server)? = span.attributes["server.address"]?.toSpanAttribute() else { return nil }
            return server
        })
        #expect(servers.contains { $0.hasPrefix("127.0.0.1:\(second.port)/") })
        second.cut()
    }
}
