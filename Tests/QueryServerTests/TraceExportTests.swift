// Part of the Tracing trait: `query serve --otlp-endpoint` exists only in a build with it.
#if Tracing
import EngineTestSupport
import Foundation
import PredicateLanguage
import Testing
import TestSupport

/// `query serve --otlp-endpoint` exports its traces with OTLP/HTTP to a collector written apart
/// from the server (`Clients/otlp_receiver.py`, decoding with opentelemetry-proto): each request
/// is a span, each store operation a span inside it, each SQL statement a span inside that.
@Suite(.enabled(if: PythonClient.python != nil || PostgresTestServer.isRequired, "QUERY_TEST_PYTHON is not set (.ci/run makes a virtual environment with opentelemetry-proto)"),
       .timeLimit(.minutes(5)))
struct TraceExportTests {
    static let receiverScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients/otlp_receiver.py")

    /// One exported span, as the receiver prints it.
    struct ExportedSpan {
        let name: String
        let kind: Int
        let traceID: String
        let spanID: String
        let parentSpanID: String
        let service: String
        let attributes: [String: String]

        init?(_ line: String) {
            guard let json = try? JSONValue(parsing: Array(line.utf8)), let name = json["name"]?.stringValue else { return nil }
            self.name = name
            kind = Int(json["kind"]?.doubleValue ?? -1)
            traceID = json["traceId"]?.stringValue ?? ""
            spanID = json["spanId"]?.stringValue ?? ""
            parentSpanID = json["parentSpanId"]?.stringValue ?? ""
            service = json["service"]?.stringValue ?? ""
            var attributes: [String: String] = [:]
            if case .object(let fields)? = json["attributes"] {
                for (key, value) in fields { attributes[key] = value.stringValue }
            }
            self.attributes = attributes
        }
    }

    @Test func aRequestIsATraceOfItsStoreOperationsAndTheirStatements() async throws {
        let python = try #require(PythonClient.python, "QUERY_TEST_PYTHON names no Python")
        let receiver = try LineReadingProcess(URL(fileURLWithPath: python), [Self.receiverScript.path], reading: .standardOutput)
        defer { receiver.stop() }
        let announced = try #require(await receiver.line(containing: "listening "), "the receiver did not start: \(receiver.output)")
        let receiverPort = try #require(Int(announced.dropFirst("listening ".count)))

        let folder = TestFolders.make("trace-export")
        defer { try? FileManager.default.removeItem(at: folder) }
        let serve = try LineReadingProcess(ConsoleBrowserTests.queryExecutable, [
            "serve", "--db", folder.appendingPathComponent("store.sqlite").path, "--port", "0",
            "--otlp-endpoint", "http://127.0.0.1:\(receiverPort)",
        ], environment: ["OTEL_BSP_SCHEDULE_DELAY": "20"], reading: .standardError)
        defer { serve.stop() }
        let listening = try #require(await serve.line(containing: "listening on http://127.0.0.1:"), "\(serve.output)")
        let port = try #require(Int(listening.components(separatedBy: "127.0.0.1:").last?.prefix { $0.isNumber } ?? ""))

        let save = #"{"operations": [{"operationType": "create", "record": {"recordType": "City", "recordName": "paris", "fields": {"name": {"value": "Paris"}}}}]}"#
        let saved = try await ServerHarness.exchange("POST", port: port, ServerHarness.path("records/modify", environment: "development"), body: save)
        #expect(saved.response?.statusCode == 200, "\(String(decoding: saved.data, as: UTF8.self))")
        let query = #"{"query": {"recordType": "City", "filterBy": [{"fieldName": "name", "comparator": "EQUALS", "fieldValue": {"value": "Paris"}}]}}"#
        let found = try await ServerHarness.exchange("POST", port: port, ServerHarness.path("records/query", environment: "development") + "?ckAPIToken=not-a-secret-here", body: query)
        #expect(found.response?.statusCode == 200, "\(String(decoding: found.data, as: UTF8.self))")

        // The spans arrive as the exporter sends its batches (a request's once its answer is
        // written): wait for the query's request span and a statement inside its operation.
        var spans: [ExportedSpan] = []
        var operations: [ExportedSpan] { spans.filter { $0.name == "store.query" } }
        func complete() -> Bool {
            spans.contains { $0.name.hasSuffix("/records/query") }
                && spans.contains { span in span.name == "SELECT" && operations.contains { $0.spanID == span.parentSpanID } }
        }
        while !complete() {
            guard let line = await receiver.line(where: { _ in true }) else {
                Issue.record("the receiver's output ended: \(receiver.output)")
                return
            }
            if let span = ExportedSpan(line) { spans.append(span) }
        }

        #expect(Set(spans.map(\.service)) == ["query"])
        let request = try #require(spans.first { $0.name.hasSuffix("/records/query") }, "\(spans.map(\.name))")
        #expect(request.name == "/database/1/{container}/{environment}/{database}/records/query")
        #expect(request.attributes["http.route"] == request.name)
        #expect(request.kind == 2, "a server span")
        #expect(request.parentSpanID.isEmpty)
        #expect(request.attributes["http.request.method"] == "POST")
        #expect(request.attributes["url.query"] == "ckAPIToken=REDACTED")
        let operation = try #require(operations.first)
        #expect(operation.parentSpanID == request.spanID && operation.traceID == request.traceID)
        #expect(operation.attributes["db.system.name"] == "sqlite")
        let statement = try #require(spans.first { $0.name == "SELECT" && $0.parentSpanID == operation.spanID })
        #expect(statement.kind == 3, "a client span")
        #expect(statement.traceID == request.traceID)
        #expect(statement.attributes["db.system.name"] == "sqlite")
        #expect(statement.attributes["db.query.text"]?.hasPrefix("SELECT") == true)
        #expect(!receiver.output.contains("Paris"), "no span holds a record's value")
        #expect(!receiver.output.contains("not-a-secret-here"), "no span holds a token")
    }
}
#endif
