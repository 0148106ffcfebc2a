import EngineTestSupport
import Foundation
import QueryServer
import RecordStore
import Testing

/// F2: connections that never finish their headers or body, or sit idle, are closed; the server
/// caps its connections and still answers `/health` at the cap.
@Suite struct ConnectionLimitTests {
    static func configuration() -> CloudKitServer.Configuration {
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.headerTimeout = 1
        configuration.bodyTimeout = 1
        configuration.idleTimeout = 1
        return configuration
    }

    /// Sends `opening`, then `byte` every 0.3 s for up to 8 s: whether the server closed the
    /// connection, and after how many seconds.
    static func trickle(port: Int, opening: String, byte: String) async throws -> (closed: Bool, seconds: Double) {
        try await RawConnection.onThread { () throws -> (Bool, Double) in
            let connection = try RawConnection(port: port)
            let started = Date()
            connection.send(opening)
            var reading = RawConnection.Reading()
            while Date().timeIntervalSince(started) < 8, !reading.closed {
                connection.send(byte)
                reading = connection.read(timeout: 0.3, untilResponse: false)
            }
            return (reading.closed, Date().timeIntervalSince(started))
        }
    }

    @Test func aClientThatNeverFinishesItsHeadersIsClosed() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.withServer(store: store, configuration: Self.configuration()) { server in
            // A byte now and then, never the end of the headers.
            // Each byte restarts an idle timer: only the head's deadline closes it within the 8 s.
            let (closed, _) = try await Self.trickle(port: server.port, opening: "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", byte: "a")
            #expect(closed)
        }
    }

    @Test func aClientThatTricklesItsBodyIsClosed() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.withServer(store: store, configuration: Self.configuration()) { server in
            let opening = RefuseBeforeReadingTests.head(ServerHarness.path("records/query"), contentLength: 1000)
            // Each byte restarts an idle timer: only the body's deadline closes it within the 8 s.
            let (closed, _) = try await Self.trickle(port: server.port, opening: opening, byte: " ")
            #expect(closed)
        }
    }

    @Test func anIdleKeepAliveConnectionIsClosed() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.withServer(store: store, configuration: Self.configuration()) { server in
            let (answer, closing) = try await RawConnection.onThread { () throws -> (RawConnection.Reading, RawConnection.Reading) in
                let connection = try RawConnection(port: server.port)
                connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let answer = connection.read(timeout: 60)
                return (answer, connection.read(timeout: 5, untilResponse: false))
            }
            #expect(answer.status == 200)
            #expect(closing.closed)
        }
    }

    @Test func atItsConnectionCapTheServerStillAnswersHealth() async throws {
        let store = try TestEngine.sqlite.makeStore()
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.maximumConnections = 3
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let (health, other) = try await RawConnection.onThread { () throws -> (RawConnection.Reading, RawConnection.Reading) in
                // Three clients hold every connection the server serves.
                let holders = try (0..<3).map { _ in try RawConnection(port: server.port) }
                for holder in holders { holder.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n") }
                Thread.sleep(forTimeInterval: 0.3)
                let monitor = try RawConnection(port: server.port)
                monitor.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let health = monitor.read(timeout: 60)
                let client = try RawConnection(port: server.port)
                client.send("GET \(ServerHarness.path("zones/list")) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let other = client.read(timeout: 60)
                withExtendedLifetime(holders) {}
                return (health, other)
            }
            #expect(health.status == 200)
            #expect(health.body == #"{"status":"ok"}"#)
            #expect(other.status == 503)
            #expect(other.body.contains("TRY_AGAIN_LATER"))
        }
    }
}
