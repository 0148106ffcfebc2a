import EngineTestSupport
import Foundation
import QueryServer
import RecordStore
import Testing
import TestSupport

/// `openapi.yaml` against the running server: schemathesis (PyPI, in the virtual environment
/// `.ci/run` makes) sends requests it generates from the document, a bounded and deterministic
/// run, and checks that no answer is a 5xx and every answer matches the document (status,
/// content type, body schema).
@Suite(.enabled(if: PythonClient.python != nil || PostgresTestServer.isRequired, "QUERY_TEST_PYTHON is not set (.ci/run makes a virtual environment with schemathesis)"))
struct OpenAPITests {
    static let document = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("openapi.yaml").path

    @Test func everyAnswerMatchesTheDocumentAndNoneIsAServerError() async throws {
        let python = try #require(PythonClient.python, "CI is set, so QUERY_TEST_PYTHON must name the virtual environment's python")
        let schemathesis = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("schemathesis").path
        let store = try await RecordsQueryTests.servedStore()
        let (status, output) = try await ServerHarness.withServer(store: store) { server in
            try await ChildProcess.run(schemathesis, [
                "run", Self.document, "--url", "http://127.0.0.1:\(server.port)", "--max-examples", "40",
                "--checks", "not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance",
                "--generation-deterministic",
                // The event stream stays open: schemathesis would wait on it forever.
                "--exclude-path-regex", "subscriptions/events",
            ])
        }
        #expect(status == 0, "schemathesis found failures:\n\(output.suffix(4000))")
        #expect(output.contains("passed"))
    }
}
