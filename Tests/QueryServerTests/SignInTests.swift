import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import Testing
import TestSupport

/// Users who sign in through an OpenID Connect provider, end to end: a provider on loopback
/// (`Clients/oidc_provider.py`) and an end user's client written from Apple's reference
/// (`Clients/cloudkit_web_client.py`), both in the virtual environment `.ci/run` makes (with
/// `requests` and `cryptography`). Under CI the test must run.
@Suite(.enabled(if: PythonClient.python != nil || PostgresTestServer.isRequired, "QUERY_TEST_PYTHON is not set (.ci/run makes a virtual environment)"))
struct SignInTests {
    static let clients = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients")
    static let apiToken = "notes-web-token"
    static let appOrigin = "https://notes.example"
    static let container = "iCloud.com.example.notes"

    /// The provider of `Clients/oidc_provider.py` started for `clientID`, and a server's
    /// configuration that signs users in through it: one API token, the app's origin allowed.
    /// Stop the provider when done.
    static func provider(
        clientID: String, apiToken: String, appOrigin: String
    ) async throws -> (provider: BackgroundProcess, issuer: String, configuration: CloudKitServer.Configuration) {
        let python = try #require(PythonClient.python, "CI is set, so QUERY_TEST_PYTHON must name the virtual environment's python")
        let provider = try await BackgroundProcess.start(python, [clients.appendingPathComponent("oidc_provider.py").path, clientID, "s3cret"])
        guard let issuer = try JSONValue(parsing: Array(provider.firstLine.utf8))["issuer"]?.stringValue else {
            provider.stop()
            throw BackgroundProcessError.noOutput("oidc_provider.py (no issuer in its first line: \(provider.firstLine))")
        }
        var credentials = ServerCredentials()
        credentials.apiTokens = [apiToken]
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, credentials: credentials, rateLimit: 0)
        configuration.allowedOrigins = [appOrigin]
        configuration.identityProvider = IdentityProviderConfiguration(issuer: issuer, clientID: clientID, clientSecret: "s3cret")
        return (provider, issuer, configuration)
    }

    @Test("A user signs in through the provider, and works with records as the token rotates",
          arguments: TestEngine.allCases.filter { $0 == .sqlite || $0 == .postgres })
    func signInEndToEnd(engine: TestEngine) async throws {
        let python = try #require(PythonClient.python, "CI is set, so QUERY_TEST_PYTHON must name the virtual environment's python")
        let (provider, issuer, configuration) = try await Self.provider(clientID: "query-notes", apiToken: Self.apiToken, appOrigin: Self.appOrigin)
        defer { provider.stop() }
        let store = try engine.makeStore()
        let output = try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let (status, output) = try await ChildProcess.run(python, [
                Self.clients.appendingPathComponent("cloudkit_web_client.py").path, "http://127.0.0.1:\(server.port)", issuer,
                Self.apiToken, Self.container, Self.appOrigin,
            ])
            #expect(status == 0, "the client failed:\n\(output.suffix(3000))")
            return output
        }
        var steps: [String: JSONValue] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("{") {
            let entry = try JSONValue(parsing: Array(line.utf8))
            steps[entry["step"]?.stringValue ?? ""] = entry
        }
        func status(_ step: String) -> Int64? { steps[step]?["status"]?.integerValue }
        func body(_ step: String) -> JSONValue? { steps[step]?["body"] }
        func names(_ step: String) -> [String] { body(step)?["records"]?.arrayValue?.compactMap { $0["recordName"]?.stringValue } ?? [] }

        #expect(status("unsigned") == 421)
        #expect(body("unsigned")?["redirectURL"]?.stringValue?.hasSuffix("/auth/signin?container=iCloud.com.example.notes") == true)
        // The popup: to the provider with PKCE (S256), back to a page that posts the token to the app only.
        let popup = try #require(steps["signin-ada"])
        #expect(popup["startStatus"] == 302)
        #expect(popup["atProvider"] == true)
        #expect(popup["challengeMethod"] == "S256")
        #expect(popup["scope"] == "openid email profile")
        #expect(popup["status"] == 200)
        #expect(popup["origin"] == .string(Self.appOrigin))
        #expect(popup["scriptHashed"] == true)
        #expect(popup["posts"] == true)
        // The user the provider named, made on first sign-in.
        let ada = try #require(body("caller-ada")?["userRecordName"]?.stringValue)
        #expect(body("caller-ada") == ["userRecordName": .string(ada), "nameComponents": ["givenName": "Ada", "familyName": "Lovelace"],
                                       "lookupInfo": ["userRecordName": .string(ada), "emailAddress": "ada@example.org"]])
        #expect(status("create-private") == 200)
        #expect(body("create-private")?["records"]?.arrayValue?.first?["created"]?["userRecordName"]?.stringValue == ada)
        #expect(status("create-public") == 200)
        #expect(names("page-1") == ["ada-1", "ada-2"])
        #expect(names("page-2") == ["ada-3"])
        #expect(steps["rotations-ada"]?["requests"] == 5)
        #expect(steps["rotations-ada"]?["rotations"] == 5)
        // The redirect style, through the provider's RSA key.
        #expect(status("signin-bob") == 302)
        #expect(steps["signin-bob"]?["returnsToApp"] == true)
        let bob = try #require(body("caller-bob")?["userRecordName"]?.stringValue)
        #expect(bob != ada)
        #expect(body("caller-bob")?["nameComponents"] == ["givenName": "Bob", "familyName": "Babbage"])
        #expect(names("bob-public") == ["ada-public"])
        #expect(status("bob-private") == 200)
        #expect(names("bob-private") == [])
        #expect(body("bob-reaches-ada")?["records"]?.arrayValue?.first?["serverErrorCode"] == "NOT_FOUND")
        #expect(status("callback-replay") == 401)
        #expect(status("foreign-origin") == 400)
        // Trading an ID token: the provider's keys (ES256 and RS256) only, for this client, this
        // issuer, this nonce, before it expires.
        #expect(status("exchange-es256") == 200)
        #expect(body("exchange-es256")?["userRecordName"]?.stringValue == ada)
        #expect(body("exchange-es256")?["ckWebAuthToken"]?.stringValue?.isEmpty == false)
        #expect(status("exchange-rs256") == 200)
        #expect(body("exchange-rs256")?["userRecordName"]?.stringValue == bob)
        let refusals = [
            "exchange-wrong-aud": "the ID token is not meant for this server (its aud does not name query-notes)",
            "exchange-wrong-iss": "the ID token's issuer is not \(issuer)",
            "exchange-wrong-nonce": "the ID token's nonce is not the sign-in's",
            "exchange-unknown-key": "the ID token is signed with a key the provider does not publish (kid unknown)",
            "exchange-expired": "the ID token has expired",
            "exchange-hs256": "the ID token is signed with HS256, not RS256 or ES256",
            "exchange-without-api-token": "auth/exchange needs one of the server's API tokens (ckAPIToken)",
        ]
        for (step, reason) in refusals {
            #expect(status(step) == 401, "\(step)")
            #expect(body(step)?["reason"]?.stringValue == reason, "\(step)")
        }
    }
}

/// A child process that runs beside a test: started, its first line of output read, stopped at
/// the end. Its output is read on a thread of its own, never on the cooperative pool.
final class BackgroundProcess: @unchecked Sendable {
    /// The process; its standard input ends when this process closes it, or when the test process ends.
    private let process: SpawnedChild
    /// The first line the process printed.
    let firstLine: String

    private init(process: SpawnedChild, firstLine: String) {
        self.process = process
        self.firstLine = firstLine
    }

    /// Starts `executable` and waits for its first line of output.
    static func start(_ executable: String, _ arguments: [String]) async throws -> BackgroundProcess {
        let process = try SpawnedChild(URL(fileURLWithPath: executable), arguments, input: .pipe, output: .pipe)
        let output = process.output ?? FileHandle.nullDevice
        let line: String = try await withCheckedThrowingContinuation { continuation in
            Thread {
                var bytes: [UInt8] = []
                while true {
                    let chunk = output.readData(ofLength: 1)
                    guard let byte = chunk.first else { break }
                    if byte == UInt8(ascii: "\n") { break }
                    bytes.append(byte)
                }
                if bytes.isEmpty {
                    continuation.resume(throwing: BackgroundProcessError.noOutput(executable))
                } else {
                    continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
                }
            }.start()
        }
        return BackgroundProcess(process: process, firstLine: line)
    }

    /// Stops the process.
    func stop() {
        try? process.input?.close()
        process.terminate()
    }
}

/// A background process that ended before it said anything.
enum BackgroundProcessError: Error, CustomStringConvertible {
    case noOutput(String)

    var description: String {
        switch self {
        case .noOutput(let executable): "\(executable) ended without printing its first line"
        }
    }
}
