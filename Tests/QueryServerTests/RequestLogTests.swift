import EngineTestSupport
import Foundation
import Logging
import PredicateLanguage
@testable import QueryServer
import RecordStore
import Testing

/// One log line per request, as JSON lines (`JSONLinesLogHandler`): each parses, names the
/// request's ID (the `uuid` of its error answer), method, route, environment, database, caller,
/// status, duration and records, and no line holds a credential or a record's value.
@Suite struct RequestLogTests {
    /// The lines a logger wrote.
    final class Lines: Sendable {
        private let lines = LockedState<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    @Test func oneJSONLinePerRequestWithItsFieldsAndNoSecret() async throws {
        let key = TestKey()
        let store = try await RecordsQueryTests.servedStore()
        var configuration = try AuthenticationTests.configuration(key)
        configuration.logsRequests = true
        let lines = Lines()
        let logger = Logger(label: "query.serve") { label in JSONLinesLogHandler(label: label, write: lines.append) }
        let secret = "SECRET-VALUE-7f3a"
        let modify = #"{"operations": [{"operationType": "create", "record": {"recordType": "City", "recordName": "logged", "fields": {"name": {"value": "\#(secret)"}}}}]}"#
        let signatures = Lines()
        let answers = try await ServerHarness.withServer(store: store, configuration: configuration, logger: logger) { server in
            let queryPath = ServerHarness.path("records/query")
            let signedQuery = try AuthenticationTests.signedHeaders(key, body: AuthenticationTests.queryBody, path: queryPath)
            let modifyPath = ServerHarness.path("records/modify")
            let signedModify = try AuthenticationTests.signedHeaders(key, body: modify, path: modifyPath)
            for signed in [signedQuery, signedModify] { signatures.append(signed["X-Apple-CloudKit-Request-SignatureV1"] ?? "") }
            return [
                try await server.send("POST", queryPath, body: AuthenticationTests.queryBody, headers: signedQuery),
                try await server.send("POST", queryPath + "?ckAPIToken=\(AuthenticationTests.token)", body: AuthenticationTests.queryBody),
                try await server.send("POST", modifyPath, body: modify, headers: signedModify),
                try await server.send("POST", modifyPath + "?ckAPIToken=\(AuthenticationTests.token)", body: modify),
                try await server.send("GET", "/nowhere"),
            ]
        }
        // An API token without a signed-in user writes nothing: 421, sign in first.
        #expect(answers.map(\.status) == [200, 200, 200, 421, 404])
        let parsed = try lines.all.map { try JSONValue(parsing: Data($0.utf8)) }
        let requests = parsed.filter { $0["message"]?.stringValue == "request" }
        try #require(requests.count == 5, "\(lines.all)")
        func field(_ index: Int, _ name: String) -> String? { requests[index][name]?.stringValue }
        #expect(requests.map { $0["route"]?.stringValue } == ["records/query", "records/query", "records/modify", "records/modify", "none"], "\(requests)")
        #expect(requests.map { $0["status"]?.stringValue } == ["200", "200", "200", "421", "404"])
        #expect(requests.map { $0["method"]?.stringValue } == ["POST", "POST", "POST", "POST", "GET"])
        #expect(requests.map { $0["caller"]?.stringValue } == ["key:\(AuthenticationTests.keyID)", "apiToken", "key:\(AuthenticationTests.keyID)", nil, nil])
        #expect(requests.map { $0["records"]?.stringValue } == ["\(answers[0].records.count)", "\(answers[1].records.count)", "1", nil, nil])
        #expect(answers[0].records.count == 12)
        #expect(field(0, "environment") == "production")
        #expect(field(0, "database") == "public")
        #expect(field(0, "level") == "info")
        #expect(field(0, "label") == "query.serve")
        for request in requests {
            #expect(Double(request["durationMilliseconds"]?.stringValue ?? "") != nil)
            #expect(request["requestID"]?.stringValue?.count == 36)
            #expect(request["time"]?.stringValue?.hasSuffix("Z") == true)
        }
        // An error's `uuid` is its request's ID in the log.
        #expect(field(3, "requestID") == answers[3].body["uuid"]?.stringValue)
        #expect(field(4, "requestID") == answers[4].body["uuid"]?.stringValue)
        // No credential and no record value, in any line.
        let text = lines.all.joined(separator: "\n")
        for secretText in [AuthenticationTests.token, secret, try key.publicPEM()] + signatures.all {
            #expect(!text.contains(secretText), "a log line holds \(secretText.prefix(20))")
        }
    }

    @Test func aJSONLineHoldsTheMessageLevelLabelAndMetadata() throws {
        let lines = Lines()
        var logger = Logger(label: "query.test") { label in JSONLinesLogHandler(label: label, write: lines.append) }
        logger[metadataKey: "server"] = "a"
        logger.warning("refused", metadata: ["code": "ACCESS_DENIED", "ids": .array(["1", "2"])])
        logger.debug("not written: below info")
        try #require(lines.all.count == 1)
        let line = try JSONValue(parsing: Data(lines.all[0].utf8))
        #expect(line["message"]?.stringValue == "refused")
        #expect(line["level"]?.stringValue == "warning")
        #expect(line["label"]?.stringValue == "query.test")
        #expect(line["server"]?.stringValue == "a")
        #expect(line["code"]?.stringValue == "ACCESS_DENIED")
        #expect(line["ids"] == .array(["1", "2"]))
        #expect(lines.all[0].hasPrefix(#"{"code":"ACCESS_DENIED","ids":["1","2"],"label":"query.test","level":"warning","message":"refused","server":"a","time":""#))
        let time = try #require(line["time"]?.stringValue)
        #expect(time.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil, "\(time)")
    }

    @Test func timesAreISO8601InUTCWithMilliseconds() {
        #expect(JSONLinesLogHandler.timestamp(Date(timeIntervalSince1970: 1_764_102_667.125)) == "2025-11-25T20:31:07.125Z")
        #expect(JSONLinesLogHandler.timestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(JSONLinesLogHandler.timestamp(Date(timeIntervalSince1970: 951_782_400.5)) == "2000-02-29T00:00:00.500Z")
    }
}
