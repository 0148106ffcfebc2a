import EngineTestSupport
import Foundation
import QueryServer
import RecordStore
import Testing

/// Every answer forbids framing; a request with two `Host` headers is refused; zone names
/// starting with `$` are the server's.
@Suite struct ResponseHardeningTests {
    @Test func everyAnswerForbidsFraming() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.withServer(store: store) { server in
            for request in ["GET /health HTTP/1.1", "GET / HTTP/1.1", "GET /nowhere HTTP/1.1", "POST /health HTTP/1.1",
                            "GET \(ServerHarness.path("zones/list")) HTTP/1.1"] {
                let answer = try await RawConnection.onThread { () throws -> String in
                    let connection = try RawConnection(port: server.port)
                    connection.send("\(request)\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
                    return connection.read(timeout: 60).text
                }
                #expect(answer.lowercased().contains("\r\nx-frame-options: deny\r\n"), "\(request): \(answer.prefix(400))")
                #expect(answer.lowercased().contains("\r\nx-content-type-options: nosniff\r\n"), "\(request)")
            }
        }
    }

    @Test func twoHostHeadersAreRefused() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.withServer(store: store) { server in
            let (one, two) = try await RawConnection.onThread { () throws -> (String, String) in
                let first = try RawConnection(port: server.port)
                first.send("GET \(ServerHarness.path("zones/list")) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let second = try RawConnection(port: server.port)
                second.send("GET \(ServerHarness.path("zones/list")) HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n")
                return (first.read(timeout: 60).text, second.read(timeout: 60).text)
            }
            #expect(one.hasPrefix("HTTP/1.1 200"))
            #expect(two.hasPrefix("HTTP/1.1 400"))
            #expect(two.contains("more than one Host header"))
        }
    }

    @Test func zoneNamesStartingWithADollarAreReserved() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.withServer(store: store) { server in
            for name in ["$assets", "$anything"] {
                let answer = try await server.send("POST", ServerHarness.path("zones/modify"),
                                                   body: #"{"operations": [{"operationType": "create", "zone": {"zoneID": {"zoneName": "\#(name)"}}}]}"#)
                let code = answer.errorCode ?? answer.body["zones"]?.arrayValue?.first?["serverErrorCode"]?.stringValue
                #expect(code == "BAD_REQUEST", "\(name): \(answer.body)")
            }
            let zones = try await server.send("GET", ServerHarness.path("zones/list"))
            #expect(zones.body["zones"]?.arrayValue?.compactMap { $0["zoneID"]?["zoneName"]?.stringValue } == ["_defaultZone"])
        }
    }
}
