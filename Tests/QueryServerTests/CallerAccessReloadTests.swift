import EngineTestSupport
import Foundation
import QueryServer
import RecordStore
import Testing
import TestSupport

/// Keys, API tokens and allowed origins change on a running server: `query serve` reads its
/// `--credentials-file` again on SIGHUP, and a library server on `reloadCallerAccess()`. The
/// next request, on a connection already open too, is answered with the new access; a file
/// that cannot be used leaves the access as it was.
@Suite(.timeLimit(.minutes(5))) struct CallerAccessReloadTests {
    static let firstKeyID = "a1a1a1a1"
    static let secondKeyID = "b2b2b2b2"

    /// A signed `zones/list` request, as one HTTP/1.1 request text on a kept-alive connection.
    static func signedZonesList(_ key: TestKey, keyID: String) throws -> String {
        let path = ServerHarness.path("zones/list")
        let headers = try AuthenticationTests.signedHeaders(key, keyID: keyID, body: "", path: path)
        return "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers.map { "\($0.key): \($0.value)\r\n" }.sorted().joined() + "\r\n"
    }

    static func tokenZonesList(_ token: String) -> String {
        "GET \(ServerHarness.path("zones/list"))?ckAPIToken=\(token) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    }

    @Test func sighupAddsAKeyAndRevokesATokenOnAConnectionAlreadyOpen() async throws {
        let folder = TestFolders.make("caller-access-reload")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = TestKey()
        let second = TestKey()
        try first.publicPEM().write(to: folder.appendingPathComponent("first.pem"), atomically: true, encoding: .utf8)
        try second.publicPEM().write(to: folder.appendingPathComponent("second.pem"), atomically: true, encoding: .utf8)
        let credentials = folder.appendingPathComponent("credentials")
        try "# the first callers\nkey \(Self.firstKeyID)=first.pem\napi-token old-token\n".write(to: credentials, atomically: true, encoding: .utf8)

        let serve = try LineReadingProcess(ConsoleBrowserTests.queryExecutable, [
            "serve", "--db", folder.appendingPathComponent("store.sqlite").path, "--port", "0", "--credentials-file", credentials.path,
        ], reading: .standardError)
        defer { serve.stop() }
        let listening = try #require(await serve.line(containing: "listening on http://127.0.0.1:"))
        #expect(listening.hasSuffix("(1 key(s), 1 API token(s))"))
        let port = try #require(Int(listening.components(separatedBy: "127.0.0.1:").last?.prefix { $0.isNumber } ?? ""))

        let connection = try RawConnection(port: port)
        /// The four requests (each key, each token) in turn on the one connection.
        func askAll() async throws -> [RawConnection.Reading] {
            let requests = [try Self.signedZonesList(first, keyID: Self.firstKeyID), try Self.signedZonesList(second, keyID: Self.secondKeyID),
                            Self.tokenZonesList("old-token"), Self.tokenZonesList("new-token")]
            return try await RawConnection.onThread { () throws -> [RawConnection.Reading] in
                requests.map { request in
                    connection.send(request)
                    return connection.read(timeout: 30)
                }
            }
        }
        let before = try await askAll()
        #expect(before.map(\.status) == [200, 401, 200, 401])
        #expect(before[1].body.contains("unknown key ID"))

        // The second key is added and the old token revoked; the first key stays.
        try """
            key \(Self.firstKeyID)=first.pem
            key \(Self.secondKeyID)=\(folder.appendingPathComponent("second.pem").path)   # an absolute path
            api-token new-token
            allowed-origin https://notes.example
            """.write(to: credentials, atomically: true, encoding: .utf8)
        serve.signal(SIGHUP)
        let reloaded = try #require(await serve.line(containing: "reloaded the caller access"))
        #expect(reloaded.hasSuffix("reloaded the caller access on SIGHUP: 2 keys, 1 API tokens, 1 allowed origins, 0 keys held to roles"))
        let after = try await askAll()
        // Every answer came on the connection opened before the reload.
        #expect(after.map(\.status) == [200, 200, 401, 200])
        #expect(after.allSatisfy { !$0.closed })

        // A file that cannot be used is refused, named in the log, and the access stays as it was.
        try "key \(Self.firstKeyID)=first.pem\napi-token new-token\npassword hunter2\n".write(to: credentials, atomically: true, encoding: .utf8)
        serve.signal(SIGHUP)
        let refused = try #require(await serve.line(containing: "was not reloaded"))
        #expect(refused.hasSuffix("the caller access was not reloaded on SIGHUP, and stays as it was: \(credentials.path):3: 'password' is not an entry of a credentials file (key, api-token, allowed-origin, key-held-to-roles)"))
        #expect(!serve.output.contains("hunter2"))
        let kept = try await RawConnection.onThread { () throws -> RawConnection.Reading in
            connection.send(try Self.signedZonesList(second, keyID: Self.secondKeyID))
            return connection.read(timeout: 30)
        }
        #expect(kept.status == 200)
        connection.close()
        // No key or token was ever logged.
        #expect(!serve.output.contains("new-token") && !serve.output.contains("old-token"))
    }

    @Test func aLibraryServerReloadsItsOriginsAndRefusesToLoseItsCredentials() async throws {
        let key = TestKey()
        var configuration = try AuthenticationTests.configuration(key)
        let origins = OriginList(["https://first.example"])
        let baseCredentials = configuration.credentials
        configuration.allowedOrigins = origins.value
        configuration.callerAccessSource = { CallerAccess(credentials: origins.value.isEmpty ? ServerCredentials() : baseCredentials, allowedOrigins: origins.value) }
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let path = ServerHarness.path("zones/list") + "?ckAPIToken=" + AuthenticationTests.token
            let first = try await server.send("GET", path, headers: ["Origin": "https://first.example"])
            #expect(first.headers["access-control-allow-origin"] == "https://first.example")

            origins.value = ["https://second.example"]
            let access = try await server.server.reloadCallerAccess()
            #expect(access.allowedOrigins == ["https://second.example"])
            let gone = try await server.send("GET", path, headers: ["Origin": "https://first.example"])
            #expect(gone.headers["access-control-allow-origin"] == nil)
            let second = try await server.send("GET", path, headers: ["Origin": "https://second.example"])
            #expect(second.headers["access-control-allow-origin"] == "https://second.example")

            // A reload that leaves no credential would open the server to anyone: refused.
            origins.value = []
            await #expect(throws: ServerCredentialError.reloadChangesOpenness(startedWithCredentials: true)) {
                try await server.server.reloadCallerAccess()
            }
            #expect(try await server.send("GET", path, headers: ["Origin": "https://second.example"]).status == 200)
            #expect(try await server.send("GET", ServerHarness.path("zones/list")).status == 421)
        }
    }

    @Test func aServerWithoutASourceHasNothingToReload() async throws {
        let store = try TestEngine.sqlite.makeStore()
        _ = try await ServerHarness.withServer(store: store) { server in
            await #expect(throws: ServerCredentialError.noSourceToReload) { try await server.server.reloadCallerAccess() }
        }
    }

    @Test func aCredentialsFileNamesTheLineOfWhatItCannotUse() throws {
        let folder = TestFolders.make("credentials-file")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("credentials")
        let key = TestKey()
        try key.publicPEM().write(to: folder.appendingPathComponent("k.pem"), atomically: true, encoding: .utf8)

        try "\n# comment\nkey K1=k.pem  # relative to the file\napi-token  t1 \nallowed-origin https://a.example\nkey-held-to-roles K1\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let base = CallerAccess(allowedOrigins: ["https://base.example"])
        let access = try CredentialsFile(path: file.path).callerAccess(adding: base)
        #expect(access.credentials.keyIDs == ["K1"])
        #expect(access.credentials.apiTokens == ["t1"])
        #expect(access.allowedOrigins == ["https://base.example", "https://a.example"])
        #expect(access.keysHeldToSecurityRoles == ["K1"])

        let cases: [(String, CredentialsFileError)] = [
            ("api-token\n", .missingValue(path: file.path, line: 1, name: "api-token")),
            ("api-token t\ntoken secret\n", .unknownEntry(path: file.path, line: 2, name: "token")),
            ("key K2\n", .key(path: file.path, line: 1, .malformedKeyOption("K2"))),
            ("key K2=missing.pem\n", .key(path: file.path, line: 1, .unreadableKeyFile(
                path: folder.appendingPathComponent("missing.pem").path, reason: "No such file or directory"))),
        ]
        for (text, expected) in cases {
            try text.write(to: file, atomically: true, encoding: .utf8)
            #expect(throws: expected) { try CredentialsFile(path: file.path).callerAccess() }
        }
        #expect(throws: CredentialsFileError.unreadable(path: "/nonexistent/credentials", reason: "No such file or directory")) {
            try CredentialsFile(path: "/nonexistent/credentials").callerAccess()
        }
    }
}

/// Origins a test changes between reloads.
private final class OriginList: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String]
    init(_ origins: [String]) { stored = origins }
    var value: [String] {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
