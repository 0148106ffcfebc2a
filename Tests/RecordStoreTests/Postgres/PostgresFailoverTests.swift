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

    /// Saves a note at a time (`after-0`, `after-1`, ...) until one is acknowledged, at most 100
    /// tries 100 ms apart: until the store has found the primary's new host, saves fail as in an
    /// outage (``RecordStoreError/serverUnavailable(server:reason:)``; any other error is an
    /// issue and ends the tries). The names tried, and the one acknowledged (nil when none was).
    static func saveUntilAcknowledged(_ store: Store) async throws -> (tried: [String], acknowledged: String?) {
        var tried: [String] = []
        for attempt in 0..<100 {
            let name = "after-\(attempt)"
            tried.append(name)
            var outcome: RecordStoreError?
            do throws(RecordStoreError) {
                _ = try await store.save([Self.note(name)])
            } catch {
                outcome = error
            }
            switch outcome {
            case nil:
                return (tried, name)
            case .serverUnavailable?:
                try await Task.sleep(for: .milliseconds(100))
            case let other?:
                Issue.record("a save during the failover failed otherwise: \(other)")
                return (tried, nil)
            }
        }
        return (tried, nil)
    }

    @Test("Naming a standby first and the primary second: read-write opens on the primary, any takes the standby, where a new store does not exist")
    func readWriteSkipsTheStandby() async throws {
        let replicaURL = try ReadReplicaTests.replicaURL()
        let primaryURL = try #require(PostgresTestServer.url)
        let replica = try #require(URLComponents(string: replicaURL))
        let primary = try #require(URLComponents(string: primaryURL))
        let hosts = "\(replica.host ?? "localhost"):\(replica.port ?? 5432),\(primary.host ?? "localhost"):\(primary.port ?? 5432)"
        let store = try await Store.open(url: try Self.storeURL(hosts: hosts, parameters: "&target_session_attrs=read-write"))
        _ = try await store.save([Self.note("a"), Self.note("b")])
        #expect(try await store.count(ofType: "Note", matching: .truePredicate) == 2)

        // Without read-write, the first host that answers is used: a standby, where a store
        // opens read-only if it exists (PostgresStandbyStoreTests), and a new one cannot make
        // its tables. The refusal says so, as an unavailable server.
        await #expect {
            _ = try await Store.open(url: try Self.storeURL(hosts: hosts))
        } throws: { error in
            guard case RecordStoreError.serverUnavailable(_, let reason) = error else { return false }
            return reason.hasPrefix("the server is a standby, read-only, and the store (schema test_") && reason.contains(") does not exist on it")
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
        let saving = try await Self.saveUntilAcknowledged(store)
        #expect(saving.acknowledged != nil)
        acknowledged += saving.acknowledged.map { [$0] } ?? []
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
