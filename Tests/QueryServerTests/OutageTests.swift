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

/// Writers that keep writing through an outage of the database lose nothing they were told was
/// saved: every request is answered, 200 or `SERVICE_UNAVAILABLE` (never a 500, never a
/// per-record error), every record a 200 acknowledged is in the store afterwards, and the
/// writes go on by themselves once the database is back.
@Suite struct OutageWriteLoadTests {
    /// What the writers were answered, and where the outage stands.
    actor Tally {
        var acknowledged: [String] = []
        var unavailable = 0
        var unexpected: [String] = []
        var restored = false
        var acknowledgedAfterRestore = 0
        /// The outage's steps waiting for the answers to reach a count.
        private var waiters: [(isMet: @Sendable (isolated Tally) -> Bool, resume: CheckedContinuation<Void, Never>)] = []

        /// Returns once `isMet` holds of the answers so far.
        func wait(until isMet: @escaping @Sendable (isolated Tally) -> Bool) async {
            if isMet(self) { return }
            await withCheckedContinuation { waiters.append((isMet, $0)) }
        }

        func record(_ name: String, _ answer: ServerHarness.Answer) {
            defer {
                let met = waiters.filter { $0.isMet(self) }
                waiters.removeAll { $0.isMet(self) }
                for waiter in met { waiter.resume.resume() }
            }
            if answer.status == 200, answer.recordNames == [name], answer.records.first?["serverErrorCode"] == nil {
                acknowledged.append(name)
                if restored { acknowledgedAfterRestore += 1 }
            } else if answer.status == 503, answer.errorCode == "SERVICE_UNAVAILABLE", answer.body["retryAfter"] != nil {
                unavailable += 1
            } else {
                unexpected.append("\(name): \(answer.status) \(answer.body)")
            }
        }

        func markRestored() { restored = true }
    }

    @Test(.enabled(if: TestEngine.allCases.contains(.postgres) || PostgresTestServer.isRequired))
    func writersThroughAnOutageLoseNothingAcknowledged() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let location = try #require(URLComponents(string: url))
        let relay = try TCPRelay(upstreamPort: try #require(location.port))
        var relayed = location
        relayed.port = relay.port
        let store = try await Store.open(url: try #require(relayed.string) + "&connect_timeout=5")
        try await store.define(RecordTypeSchema(name: "City", justInTimeIndexes: .all))
        let tally = Tally()
        try await ServerHarness.withServer(store: store) { server in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        // Each writer writes until 10 writes were acknowledged after the restore
                        // (a bound of attempts keeps a broken recovery from hanging the test).
                        for attempt in 0..<3_000 {
                            if await tally.acknowledgedAfterRestore >= 10 { return }
                            let name = "w\(writer)-\(attempt)"
                            let body = #"{"operations": [{"operationType": "create", "record": {"recordName": "\#(name)", "recordType": "City", "fields": {"name": {"value": "\#(name)"}}}}]}"#
                            await tally.record(name, try await server.send("POST", ServerHarness.path("records/modify", environment: "development"), body: body))
                        }
                    }
                }
                group.addTask {
                    // The outage: after 20 acknowledged writes, until 12 writes were refused.
                    await tally.wait { $0.acknowledged.count >= 20 }
                    relay.cut()
                    await tally.wait { $0.unavailable >= 12 }
                    try relay.restore()
                    await tally.markRestored()
                }
                try await group.waitForAll()
            }
            // Every acknowledged record is stored (a write cut off mid-commit may be stored too).
            let acknowledged = await tally.acknowledged
            var found = 0
            for start in stride(from: 0, to: acknowledged.count, by: 100) {
                let names = acknowledged[start..<min(start + 100, acknowledged.count)].map { #"{"recordName": "\#($0)"}"# }
                let lookup = try await server.send("POST", ServerHarness.path("records/lookup", environment: "development"), body: #"{"records": [\#(names.joined(separator: ", "))]}"#)
                found += lookup.records.filter { $0["recordType"]?.stringValue == "City" }.count
            }
            #expect(found == acknowledged.count, "\(acknowledged.count - found) of \(acknowledged.count) acknowledged records are missing")
        }
        relay.cut()
        let unexpected = await tally.unexpected
        #expect(unexpected.isEmpty, "\(unexpected.prefix(3))")
        #expect(await tally.acknowledgedAfterRestore >= 10)
    }
}
