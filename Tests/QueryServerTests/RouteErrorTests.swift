import EngineTestSupport
import Foundation
import QueryServer
import RecordStore
import Testing

/// F6: unknown routes and wrong methods answer CloudKit's error body, not an empty 404.
@Suite struct RouteErrorTests {
    @Test func unknownRoutesAndWrongMethodsAnswerCloudKitErrors() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.withServer(store: store) { server in
            for path in ["/nowhere", ServerHarness.path("records/nothing"), "/database/2/x/production/public/records/query"] {
                let answer = try await server.send("GET", path)
                #expect(answer.status == 404, "\(path)")
                #expect(answer.errorCode == "NOT_FOUND", "\(path)")
                #expect(answer.body["uuid"]?.stringValue?.count == 36, "\(path)")
                #expect(answer.body["reason"]?.stringValue?.hasPrefix("no route GET ") == true, "\(path)")
                #expect(answer.contentType == "application/json; charset=utf-8")
            }
            let wrongMethod = try await server.send("GET", ServerHarness.path("records/query"))
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.errorCode == "BAD_REQUEST")
            #expect(wrongMethod.body["reason"]?.stringValue == "\(ServerHarness.path("records/query")) answers POST, not GET")
            let deleteHealth = try await server.send("DELETE", "/health")
            #expect(deleteHealth.status == 405)
            #expect(deleteHealth.body["reason"]?.stringValue == "/health answers GET, not DELETE")
        }
    }
}
