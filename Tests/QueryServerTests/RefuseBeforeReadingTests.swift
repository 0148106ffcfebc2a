import EngineTestSupport
import Foundation
@testable import QueryServer
import RecordStore
import Testing

/// F3: a request is refused from its headers, before its body is read; failed authentications
/// are throttled per client address; idle callers' rate-limit buckets are dropped.
@Suite(.serialized) struct RefuseBeforeReadingTests {
    static func head(_ path: String, contentLength: Int, extra: String = "") -> String {
        "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: \(contentLength)\r\n\(extra)\r\n"
    }

    @Test func anUnauthenticatedRequestIsAnsweredWithoutWaitingForItsBody() async throws {
        let store = try await RecordsQueryTests.servedStore()
        var configuration = try AuthenticationTests.configuration(TestKey())
        // A server that waited for the body would still be waiting when the reading below gives up.
        configuration.bodyTimeout = 600
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let path = ServerHarness.path("records/query")
            let unsigned = try await RawConnection.onThread { () throws -> RawConnection.Reading in
                let connection = try RawConnection(port: server.port)
                connection.send(Self.head(path, contentLength: 3_000_000))
                // The body never comes: the answer must not wait for it.
                return connection.read(timeout: 60)
            }
            #expect(unsigned.status == 421)
            #expect(unsigned.body.contains("AUTHENTICATION_REQUIRED"))
            let tooLarge = try await RawConnection.onThread { () throws -> RawConnection.Reading in
                let connection = try RawConnection(port: server.port)
                connection.send(Self.head(path, contentLength: 5 << 20, extra: "X-Apple-CloudKit-Request-KeyID: \(AuthenticationTests.keyID)\r\n"))
                return connection.read(timeout: 60)
            }
            #expect(tooLarge.status == 413)
            #expect(tooLarge.body.contains("QUOTA_EXCEEDED"))
        }
    }

    /// 32 unauthenticated 4 MB uploads at once: the server reads none of them into memory.
    @Test func unauthenticatedLargeBodiesCostTheServerNoMemory() async throws {
        let store = try await RecordsQueryTests.servedStore()
        var configuration = try AuthenticationTests.configuration(TestKey())
        configuration.failedAuthenticationRate = 0
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let path = ServerHarness.path("records/query")
            let body = [UInt8](repeating: UInt8(ascii: " "), count: 4 << 20 - 16) + Array(#"{"query":{}}    "#.utf8)
            let before = try Self.peakResidentBytes()
            let statuses = try await withThrowingTaskGroup(of: Int?.self) { group in
                for _ in 0..<32 {
                    group.addTask {
                        try await RawConnection.onThread { () throws -> Int? in
                            let connection = try RawConnection(port: server.port)
                            connection.send(Self.head(path, contentLength: body.count))
                            connection.send(body)
                            return connection.read(timeout: 20).status
                        }
                    }
                }
                return try await group.reduce(into: [Int?]()) { $0.append($1) }
            }
            let grown = try Self.peakResidentBytes() - before
            #expect(statuses == Array(repeating: 421, count: 32))
            // Read into memory, the bodies would take 128 MB at once.
            #expect(grown < 48 << 20, "the peak resident size grew by \(grown >> 20) MB")
        }
    }

    @Test func failedAuthenticationsAreThrottledPerAddress() async throws {
        let store = try await RecordsQueryTests.servedStore()
        var configuration = try AuthenticationTests.configuration(TestKey())
        configuration.failedAuthenticationRate = 0.01
        configuration.failedAuthenticationBurst = 3
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let path = ServerHarness.path("records/query") + "?ckAPIToken=guess"
            var codes: [String?] = []
            for _ in 0..<5 { codes.append(try await server.send("POST", path, body: AuthenticationTests.queryBody).errorCode) }
            #expect(codes == ["AUTHENTICATION_FAILED", "AUTHENTICATION_FAILED", "AUTHENTICATION_FAILED", "THROTTLED", "THROTTLED"])
            let throttled = try await server.send("POST", ServerHarness.path("records/query") + "?ckAPIToken=\(AuthenticationTests.token)", body: AuthenticationTests.queryBody)
            // Even a good credential waits: the address is throttled before anything is checked.
            #expect(throttled.status == 429)
            #expect((throttled.body["retryAfter"]?.integerValue ?? 0) >= 1)
        }
    }

    @Test func idleCallersBucketsAreDropped() throws {
        let limiter = RateLimiter(rate: 10, burst: 2)
        for caller in 0..<RateLimiter.smallestSweep - 1 { try limiter.admit("caller-\(caller)", now: 0) }
        #expect(limiter.bucketCount == RateLimiter.smallestSweep - 1)
        // A second later every bucket has refilled: the next sweep drops them all but the newest.
        try limiter.admit("late", now: 1)
        #expect(limiter.bucketCount == 1)
    }

    /// The process's peak resident size (`VmHWM`), in bytes.
    static func peakResidentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kilobytes = try #require(Int(line.split(separator: " ").dropFirst().first ?? ""))
        return kilobytes * 1024
    }
}
