import EngineTestSupport
import Foundation
import QueryServer
import RecordStore
import Testing
import TestSupport

/// HTTPS: a self-signed certificate made for the test with `openssl`, and `curl` trusting it.
@Suite struct TLSTests {
    static let tools = ["/usr/bin/openssl", "/usr/bin/curl"]
    static let available = tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: available || PostgresTestServer.isRequired, "openssl and curl are needed (apt-get install openssl curl)"))
    func anHTTPSRoundTripWithASelfSignedCertificate() async throws {
        try #require(Self.available, "CI is set, so openssl and curl must be installed")
        let directory = TestEngine.temporaryDatabasePath("tls")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let certificate = directory + "/cert.pem"
        let key = directory + "/key.pem"
        let made = try await ChildProcess.run("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key, "-out", certificate,
        ])
        #expect(made.status == 0, "\(made.output)")
        let store = try await RecordsQueryTests.servedStore()
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.tls = TLSFiles(certificatePath: certificate, keyPath: key)
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let url = "https://localhost:\(server.port)"
            let health = try await ChildProcess.run("/usr/bin/curl", ["-sS", "--cacert", certificate, url + "/health"])
            #expect(health.status == 0, "\(health.output)")
            #expect(health.output == #"{"status":"ok"}"#)
            let query = try await ChildProcess.run("/usr/bin/curl", [
                "-sS", "--cacert", certificate, "-H", "Content-Type: text/plain", "-H", "Origin: \(url)",
                "--data", AuthenticationTests.queryBody, url + ServerHarness.path("records/query"),
            ])
            let answer = try JSONValue(parsing: Array(query.output.utf8))
            #expect(answer["records"]?.arrayValue?.count == 12)
            // TLS 1.2 and later only: a client that offers at most TLS 1.1 (at OpenSSL's security
            // level 0, which still allows it) finds no protocol in common; TLS 1.2 connects.
            let old = try await ChildProcess.run("/usr/bin/openssl", [
                "s_client", "-connect", "127.0.0.1:\(server.port)", "-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0",
            ])
            #expect(old.status != 0, "\(old.output)")
            let current = try await ChildProcess.run("/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(server.port)", "-tls1_2"])
            #expect(current.status == 0, "\(current.output)")
            // Plain HTTP to the HTTPS port gets no answer.
            let plain = try await ChildProcess.run("/usr/bin/curl", ["-sS", "--max-time", "5", "http://localhost:\(server.port)/health"])
            #expect(plain.status != 0)
        }
        #expect(throws: TLSFilesError.self) { try TLSFiles(certificatePath: key + ".missing", keyPath: key).check() }
    }
}
