import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import Testing

/// While the store's PostgreSQL cannot be reached, every request is answered
/// `SERVICE_UNAVAILABLE` (503) with `retryAfter`, a write included (never a per-record error
/// inside a 200, never a 500), `/health/ready` says so while `/health` stays 200, and the server
/// recovers by itself when the database is back.
/// The database "goes away" behind a relay (``TCPRelay``) that the test cuts and restores.
@Suite struct OutageTests {
    @Test(.enabled(if: TestEngine.allCases.contains(.postgres) || PostgresTestServer.isRequired))
    func anUnreachableDatabaseIsServiceUnavailableAndTheServerRecovers() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let location = try #require(URLComponents(string: url))
        let relay = try TCPRelay(upstreamPort: try #require(location.port))
        var relayed = location
        relayed.port = relay.port
        // A short connect timeout answers the outage quickly, but not so short that a loaded
        // machine cannot connect in time while the database is there (1 s failed on CI).
        let relayedURL = try #require(relayed.string) + "&connect_timeout=5"
        let store = try await Store.open(url: relayedURL)
        try await store.define(RecordTypeSchema(name: "City", justInTimeIndexes: .all))
        _ = try await store.save(RecordsQueryTests.cities())
        let query = AuthenticationTests.queryBody
        let modify = #"{"operations": [{"operationType": "forceReplace", "record": {"recordName": "outage", "recordType": "City", "fields": {"name": {"value": "Outage"}}}}]}"#
        try await ServerHarness.withServer(store: store) { server in
            let before = try await server.send("POST", ServerHarness.path("records/query"), body: query)
            #expect(before.status == 200)
            #expect(before.records.count == 12)

            #expect(try await server.send("GET", "/health/ready").body == ["status": "ready"])
            relay.cut()
            // Alive, not ready.
            #expect(try await server.send("GET", "/health").status == 200)
            let unready = try await server.send("GET", "/health/ready")
            #expect(unready.status == 503, "\(unready.body)")
            #expect(unready.errorCode == "SERVICE_UNAVAILABLE")
            #expect(unready.body["retryAfter"]?.integerValue == 2)
            for attempt in 0..<6 {
                let path = ServerHarness.path(attempt.isMultiple(of: 2) ? "records/query" : "records/modify")
                let answer = try await server.send("POST", path, body: attempt.isMultiple(of: 2) ? query : modify)
                #expect(answer.status == 503, "attempt \(attempt): \(answer.body)")
                #expect(answer.errorCode == "SERVICE_UNAVAILABLE")
                #expect(answer.body["retryAfter"]?.integerValue == 2)
            }

            try relay.restore()
            // The server finds the database again by itself: within a few seconds a request
            // passes (each try is answered at once until the one that reaches the database).
            var recovered: ServerHarness.Answer?
            for _ in 0..<40 {
                let answer = try await server.send("POST", ServerHarness.path("records/modify"), body: modify)
                if answer.status == 200 {
                    recovered = answer
                    break
                }
                #expect(answer.errorCode == "SERVICE_UNAVAILABLE", "\(answer.body)")
                try await Task.sleep(for: .milliseconds(250))
            }
            #expect(recovered?.recordNames == ["outage"])
            #expect(try await server.send("GET", "/health/ready").body == ["status": "ready"])
            let after = try await server.send("POST", ServerHarness.path("records/query"), body: query)
            #expect(after.records.count == 13)
        }
        relay.cut()
    }
}
