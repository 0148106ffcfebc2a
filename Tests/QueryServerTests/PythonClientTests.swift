import EngineTestSupport
import Foundation
import QueryServer
import RecordStore
import Testing
import TestSupport

/// The server driven by a client this project did not write the signing of: python-ecdsa and
/// requests (PyPI), in the virtual environment `.ci/run` makes (`QUERY_TEST_PYTHON` names its
/// interpreter). Under CI the test must run.
///
/// (`requests-cloudkit`, the PyPI package made for this, cannot sign a request on Python 3: its
/// 1.0.1 hashes a `str` and formats `bytes` into the message, and lacks its `pytz` dependency.)
/// The Python interpreter of the virtual environment, when one is configured.
enum PythonClient {
    static let python = ProcessInfo.processInfo.environment["QUERY_TEST_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
}

@Suite(.enabled(if: PythonClient.python != nil || PostgresTestServer.isRequired, "QUERY_TEST_PYTHON is not set (.ci/run makes a virtual environment with python-ecdsa and requests)"))
struct PythonClientTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients/cloudkit_s2s_client.py").path

    /// Runs the script with arguments; its standard output (and error, for a failure's message).
    static func run(_ arguments: [String]) async throws -> String {
        let python = try #require(PythonClient.python, "CI is set, so QUERY_TEST_PYTHON must name the virtual environment's python")
        let (status, output) = try await ChildProcess.run(python, [script] + arguments)
        #expect(status == 0, "the client failed:\n\(output.suffix(3000))")
        return output
    }

    @Test func signedFlowsFromAPythonClient() async throws {
        let keyPath = TestEngine.temporaryDatabasePath("python-key") + ".pem"
        _ = try await Self.run(["keygen", keyPath])
        var credentials = ServerCredentials()
        // The server is given the private key file, as CloudKit's dashboard users hold it.
        try credentials.addKey("python-client=\(keyPath)")
        let store = try TestEngine.sqlite.makeStore()
        let configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, credentials: credentials)
        let lines = try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            try await Self.run(["run", "http://127.0.0.1:\(server.port)", "python-client", keyPath])
        }
        var steps: [String: (status: Int, body: JSONValue)] = [:]
        for line in lines.split(separator: "\n") where line.hasPrefix("{") {
            let entry = try JSONValue(parsing: Array(line.utf8))
            steps[entry["step"]?.stringValue ?? ""] = (Int(entry["status"]?.integerValue ?? 0), entry["body"] ?? .null)
        }
        #expect(steps["zones"]?.status == 200)
        #expect(steps["zones"]?.body["zones"]?.arrayValue?.first?["zoneID"]?["zoneName"] == "_defaultZone")
        #expect(steps["create"]?.body["records"]?.arrayValue?.first?["recordName"] == "lisbon")
        #expect(steps["query"]?.body["records"]?.arrayValue?.compactMap { $0["recordName"]?.stringValue } == ["lisbon"])
        #expect(steps["lookup"]?.body["records"]?.arrayValue?.first?["fields"]?["population"]?["value"] == .integer(545_923))
        #expect(steps["tampered"]?.status == 401)
        #expect(steps["tampered"]?.body["serverErrorCode"] == "AUTHENTICATION_FAILED")
        // An asset uploaded, referenced, looked up and downloaded, as Apple's reference describes it.
        #expect(steps["assets-upload"]?.status == 200)
        #expect(steps["asset-receipt"]?.status == 200)
        #expect(steps["asset-receipt"]?.body == ["checksumMatches": true, "size": 10_243])
        #expect(steps["asset-record"]?.body["records"]?.arrayValue?.first?["fields"]?["flag"]?["type"] == "ASSETID")
        #expect(steps["asset-download"]?.status == 200)
        #expect(steps["asset-download"]?.body == ["matches": true, "size": 10_243])
        #expect(steps["asset-forged"]?.status == 401)
        #expect(steps["asset-forged"]?.body["serverErrorCode"] == "AUTHENTICATION_FAILED")
        // The key's user: `_` and 32 hex digits.
        let user = try #require(steps["user"]?.body["userRecordName"]?.stringValue)
        #expect(user.count == 33 && user.hasPrefix("_"))
    }
}
