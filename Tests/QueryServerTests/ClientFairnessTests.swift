import EngineTestSupport
import Foundation
@testable import QueryServer
import RecordStore
import Testing

/// No client can take what the server owes the others: one address's connections are capped,
/// a kept-alive connection's next request is held to a deadline, event streams are capped per
/// caller, forgers cannot throttle a real key, and behind a trusted proxy each client counts as
/// itself.
@Suite struct ClientFairnessTests {
    static let health = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    @Test func oneAddressFloodingConnectionsLeavesTheOthersServed() async throws {
        let store = try TestEngine.sqlite.makeStore()
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.maximumConnectionsPerAddress = 4
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let outcome = try await RawConnection.onThread { () throws -> (closed: Int, healthOverCap: Int?, queryOverCap: String, other: Int?) in
                // 127.0.0.2 opens ten connections: four served, two for /health only, four closed at once.
                // Each sends its request as it opens: a head that comes later than the server's
                // header timeout (10 s, which a loaded machine can take to answer the ones before)
                // would be closed for its slowness, not for the cap.
                let flood = try (0..<10).map { _ in
                    let connection = try RawConnection(port: server.port, from: "127.0.0.2")
                    connection.send(Self.health)
                    return connection
                }
                var closed = 0
                for connection in flood {
                    let reading = connection.read(timeout: 60)
                    if reading.status == nil, reading.closed { closed += 1 }
                }
                // While it holds more than its cap, that address gets /health only.
                flood[0].send("GET \(ServerHarness.path("zones/list")) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let query = flood[0].read(timeout: 60).text
                flood[1].send(Self.health)
                let healthOverCap = flood[1].read(timeout: 60).status
                // Another client is served as if nothing happened.
                let other = try RawConnection(port: server.port, from: "127.0.0.3")
                other.send("GET \(ServerHarness.path("zones/list")) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let otherStatus = other.read(timeout: 60).status
                withExtendedLifetime(flood) {}
                return (closed, healthOverCap, query, otherStatus)
            }
            #expect(outcome.closed == 4)
            #expect(outcome.healthOverCap == 200)
            #expect(outcome.queryOverCap.hasPrefix("HTTP/1.1 503"))
            #expect(outcome.queryOverCap.contains("TRY_AGAIN_LATER"))
            #expect(outcome.other == 200)
        }
    }

    @Test func aSlowSecondRequestOnAKeptAliveConnectionIsClosed() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.withServer(store: store, configuration: ConnectionLimitTests.configuration()) { server in
            let (first, closed) = try await RawConnection.onThread { () throws -> (Int?, Bool) in
                let connection = try RawConnection(port: server.port)
                connection.send(Self.health)
                let first = connection.read(timeout: 60).status
                // The next request's head, a byte every 0.3 s: each byte restarts an idle timer,
                // but not the deadline of the next head.
                let started = Date()
                connection.send("GET /health HTTP/1.1\r\nX-Slow: ")
                var reading = RawConnection.Reading()
                while Date().timeIntervalSince(started) < 8, !reading.closed {
                    connection.send("a")
                    reading = connection.read(timeout: 0.3, untilResponse: false)
                }
                return (first, reading.closed)
            }
            #expect(first == 200)
            #expect(closed)
        }
    }

    @Test func eventStreamsAreCappedPerCaller() async throws {
        let store = try TestEngine.sqlite.makeStore()
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.maximumStreamsPerCaller = 2
        let events = "GET \(ServerHarness.path("subscriptions/events")) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let (held, third, otherCaller, afterClosing) = try await RawConnection.onThread { () throws -> ([Int?], String, Int?, Int?) in
                let streams = try (0..<2).map { _ in try RawConnection(port: server.port) }
                var held: [Int?] = []
                for stream in streams {
                    stream.send(events)
                    held.append(stream.readHead(timeout: 30).status)
                }
                let third = try RawConnection(port: server.port)
                third.send(events)
                let refused = third.read(timeout: 60).text
                let other = try RawConnection(port: server.port, from: "127.0.0.2")
                other.send(events)
                let otherStatus = other.readHead(timeout: 30).status
                // A stream that ends gives its place back.
                streams[0].close()
                var again: Int?
                // The server learns of the hang-up as an event, so a retry may come before it.
                for _ in 0..<40 where again != 200 {
                    let retry = try RawConnection(port: server.port)
                    retry.send(events)
                    again = retry.readHead(timeout: 30).status
                }
                withExtendedLifetime(streams) {}
                return (held, refused, otherStatus, again)
            }
            #expect(held == [200, 200])
            #expect(third.hasPrefix("HTTP/1.1 429"))
            #expect(third.contains("THROTTLED"))
            #expect(otherCaller == 200)
            #expect(afterClosing == 200)
        }
    }

    @Test func forgersThrottleNeitherARealKeyNorTheClientsBehindATrustedProxy() async throws {
        let key = TestKey()
        let store = try await RecordsQueryTests.servedStore()
        var configuration = try AuthenticationTests.configuration(key, rateLimit: 0.001, rateBurst: 3)
        configuration.failedAuthenticationBurst = 5
        configuration.failedAuthenticationRate = 0.001
        configuration.trustedProxies = ["127.0.0.1"]
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let path = ServerHarness.path("records/query")
            let body = AuthenticationTests.queryBody
            func forged(from address: String) async throws -> ServerHarness.Answer {
                var headers = try AuthenticationTests.signedHeaders(TestKey(), body: body, path: path)
                headers["X-Forwarded-For"] = address
                return try await server.send("POST", path, body: body, headers: headers)
            }
            // One forger behind the proxy: its own address is throttled after five failures.
            var forgerCodes: [String] = []
            for _ in 0..<12 { forgerCodes.append(try await forged(from: "198.51.100.66").errorCode ?? "") }
            #expect(forgerCodes == Array(repeating: "AUTHENTICATION_FAILED", count: 5) + Array(repeating: "THROTTLED", count: 7))
            // Those five failed signatures also spent the burst of the key ID they named: forgers
            // from other addresses naming it are THROTTLED from their first try.
            var spreadCodes: [String] = []
            for index in 0..<8 { spreadCodes.append(try await forged(from: "198.51.100.\(10 + index)").errorCode ?? "") }
            #expect(spreadCodes == Array(repeating: "THROTTLED", count: 8))
            // The real key, from its own address behind the proxy: its three requests (its whole
            // burst) pass, none of it spent by the forgers.
            for _ in 0..<3 {
                var headers = try AuthenticationTests.signedHeaders(key, body: body, path: path)
                headers["X-Forwarded-For"] = "203.0.113.7, 127.0.0.1"
                let answer = try await server.send("POST", path, body: body, headers: headers)
                #expect(answer.status == 200, "\(answer.body)")
            }
        }
    }

    @Test func forwardedAddressesAreBelievedFromTrustedProxiesOnly() {
        let trusted: Set<String> = ["127.0.0.1", "10.1.1.1"]
        #expect(ClientAddressMiddleware.clientAddress(peer: "127.0.0.1", forwardedFor: ["203.0.113.9"], trustedProxies: trusted) == "203.0.113.9")
        // A chain: the last address that is not a proxy; what the client wrote left of it is not believed.
        #expect(ClientAddressMiddleware.clientAddress(peer: "127.0.0.1", forwardedFor: ["1.2.3.4, 203.0.113.9, 10.1.1.1"], trustedProxies: trusted) == "203.0.113.9")
        #expect(ClientAddressMiddleware.clientAddress(peer: "127.0.0.1", forwardedFor: ["1.2.3.4", "203.0.113.9"], trustedProxies: trusted) == "203.0.113.9")
        // From any other peer the header is ignored.
        #expect(ClientAddressMiddleware.clientAddress(peer: "192.0.2.5", forwardedFor: ["203.0.113.9"], trustedProxies: trusted) == "192.0.2.5")
        #expect(ClientAddressMiddleware.clientAddress(peer: "127.0.0.1", forwardedFor: [], trustedProxies: trusted) == "127.0.0.1")
    }
}
