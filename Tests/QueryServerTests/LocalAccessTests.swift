import EngineTestSupport
import Foundation
import QueryServer
import RecordStore
import Testing

/// F4: a server without credentials answers no cross-site page and no rebound host name.
@Suite struct LocalAccessTests {
    static let deleteParis = #"{"operations": [{"operationType": "forceDelete", "record": {"recordName": "paris"}}]}"#

    @Test func aCrossSitePostIsRefusedAndWritesNothing() async throws {
        let store = try await RecordsQueryTests.servedStore()
        try await ServerHarness.withServer(store: store) { server in
            let path = ServerHarness.path("records/modify")
            let crossSite = try await server.send("POST", path, body: Self.deleteParis, headers: ["Origin": "https://evil.example"])
            #expect(crossSite.status == 403)
            #expect(crossSite.errorCode == "ACCESS_DENIED")
            #expect(crossSite.body["reason"]?.stringValue?.contains("--allowed-origin") == true)
            let opaque = try await server.send("POST", path, body: Self.deleteParis, headers: ["Origin": "null"])
            #expect(opaque.status == 403)
            #expect(try await store.record(for: RecordID(recordName: "paris")) != nil)
            // The console's own origin: the scheme and the Host it was loaded from.
            let own = try await server.send("POST", ServerHarness.path("records/query"), body: AuthenticationTests.queryBody,
                                            headers: ["Origin": "http://127.0.0.1:\(server.port)"])
            #expect(own.status == 200)
            #expect(own.records.count == 12)
        }
    }

    @Test func aReboundHostIsRefused() async throws {
        let store = try await RecordsQueryTests.servedStore()
        try await ServerHarness.withServer(store: store) { server in
            // A page of evil.example whose name now resolves to 127.0.0.1 sends its own name.
            let rebound = try await RawConnection.onThread { () throws -> RawConnection.Reading in
                let connection = try RawConnection(port: server.port)
                connection.send("GET / HTTP/1.1\r\nHost: evil.example:\(server.port)\r\n\r\n")
                return connection.read(timeout: 60)
            }
            #expect(rebound.status == 403)
            #expect(rebound.body.contains("ACCESS_DENIED"))
            #expect(!rebound.body.contains("<html"))
            let local = try await RawConnection.onThread { () throws -> RawConnection.Reading in
                let connection = try RawConnection(port: server.port)
                connection.send("GET /health HTTP/1.1\r\nHost: localhost:\(server.port)\r\n\r\n")
                return connection.read(timeout: 60)
            }
            #expect(local.status == 200)
        }
    }

    @Test func allowedHostsAndOriginsAreAnswered() async throws {
        let store = try await RecordsQueryTests.servedStore()
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.allowedHosts = ["devbox.lan"]
        configuration.allowedOrigins = ["https://app.example"]
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let answer = try await RawConnection.onThread { () throws -> RawConnection.Reading in
                let connection = try RawConnection(port: server.port)
                connection.send("GET /health HTTP/1.1\r\nHost: devbox.lan:\(server.port)\r\nOrigin: https://app.example\r\n\r\n")
                return connection.read(timeout: 60)
            }
            #expect(answer.status == 200)
        }
    }
}
