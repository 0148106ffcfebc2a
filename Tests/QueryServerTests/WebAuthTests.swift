import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import QueryServer
import RecordStore
import Testing

/// Signed-in users: an API token with a user's `ckWebAuthToken` (made by `WebAuthSessions`, as
/// `query users token` does), the token rotating on every answer, each user's private database
/// their own, and every way a token is refused.
@Suite struct WebAuthTests {
    static let apiToken = "web-app-token"
    static let container = "iCloud.com.example.cities"

    /// A server with one API token (and no key).
    static func configuration(allowedOrigins: [String] = []) -> CloudKitServer.Configuration {
        var credentials = ServerCredentials()
        credentials.apiTokens = [apiToken]
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, credentials: credentials, rateLimit: 0)
        configuration.allowedOrigins = allowedOrigins
        return configuration
    }

    /// A user added to the store, and a token of theirs for the container.
    static func signIn(_ store: Store, email: String, givenName: String, discoverable: Bool = true,
                       container: String = container) async throws -> (user: ServerUser, token: String) {
        let user = try await UserDirectory(store: store).add(ServerUser(givenName: givenName, emailAddress: email, isDiscoverable: discoverable))
        let token = try await WebAuthSessions(store: store).open(userRecordName: user.userRecordName, container: container)
        return (user, token)
    }

    /// A signed-in client of a server: each request carries the API token and the current web
    /// auth token, and each answer's next token replaces it (as CloudKit JS keeps it).
    actor SignedInClient {
        let server: ServerHarness
        private(set) var token: String
        /// Answers that carried a token other than the one sent.
        private(set) var rotations = 0

        init(_ server: ServerHarness, token: String) {
            self.server = server
            self.token = token
        }

        func post(_ operation: String, _ body: JSONValue, database: String, environment: String = "development") async throws -> ServerHarness.Answer {
            let path = ServerHarness.path(operation, environment: environment, database: database)
                + "?ckAPIToken=\(WebAuthTests.apiToken)&ckWebAuthToken=\(token)"
            let answer = try await server.send("POST", path, body: String(decoding: body.jsonBytes(), as: UTF8.self))
            take(answer)
            return answer
        }

        func get(_ operation: String) async throws -> ServerHarness.Answer {
            let answer = try await server.send("GET", ServerHarness.path(operation) + "?ckAPIToken=\(WebAuthTests.apiToken)&ckWebAuthToken=\(token)")
            take(answer)
            return answer
        }

        private func take(_ answer: ServerHarness.Answer) {
            guard let next = answer.headers["x-apple-cloudkit-web-auth-token"] else { return }
            if next != token { rotations += 1 }
            token = next
        }
    }

    static func create(_ recordName: String, title: String) -> JSONValue {
        ["operations": [["operationType": "create", "record": ["recordName": .string(recordName), "recordType": "Note",
                                                                "fields": ["title": ["value": .string(title)]]]]]]
    }

    static let notesQuery: JSONValue = ["query": ["recordType": "Note", "sortBy": [["systemFieldName": "recordName"]]]]

    @Test("Two signed-in users share the public database and never see each other's private one", arguments: TestEngine.allCases)
    func twoUsers(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        let (ada, adaToken) = try await Self.signIn(store, email: "ada@example.org", givenName: "Ada")
        let (bob, bobToken) = try await Self.signIn(store, email: "bob@example.org", givenName: "Bob")
        try await ServerHarness.withServer(store: store, configuration: Self.configuration()) { server in
            let adaClient = SignedInClient(server, token: adaToken)
            let bobClient = SignedInClient(server, token: bobToken)
            #expect(try await adaClient.post("records/modify", Self.create("a1", title: "Ada's"), database: "private").status == 200)
            #expect(try await bobClient.post("records/modify", Self.create("b1", title: "Bob's"), database: "private").status == 200)
            #expect(try await adaClient.post("records/modify", Self.create("pa", title: "Ada's public"), database: "public").status == 200)
            #expect(try await bobClient.post("records/modify", Self.create("pb", title: "Bob's public"), database: "public").status == 200)

            let adaPrivate = try await adaClient.post("records/query", Self.notesQuery, database: "private")
            #expect(adaPrivate.recordNames == ["a1"])
            #expect(adaPrivate.records.first?["created"]?["userRecordName"]?.stringValue == ada.userRecordName)
            #expect(adaPrivate.records.first?["modified"]?["userRecordName"]?.stringValue == ada.userRecordName)
            let bobPrivate = try await bobClient.post("records/query", Self.notesQuery, database: "private")
            #expect(bobPrivate.recordNames == ["b1"])
            #expect(bobPrivate.records.first?["created"]?["userRecordName"]?.stringValue == bob.userRecordName)
            // Bob cannot reach Ada's private record by name either.
            let reach = try await bobClient.post("records/lookup", ["records": [["recordName": "a1"]]], database: "private")
            #expect(reach.records.first?["serverErrorCode"] == "NOT_FOUND")

            #expect(try await adaClient.post("records/query", Self.notesQuery, database: "public").recordNames == ["pa", "pb"])
            #expect(try await bobClient.post("records/query", Self.notesQuery, database: "public").recordNames == ["pa", "pb"])

            let caller = try await adaClient.get("users/caller")
            #expect(caller.body == ["userRecordName": .string(ada.userRecordName), "nameComponents": ["givenName": "Ada"],
                                    "lookupInfo": ["userRecordName": .string(ada.userRecordName), "emailAddress": "ada@example.org"]])
            // Every answer carried a new token, and the client always sent the newest.
            #expect(await adaClient.rotations == 5)
            #expect(await bobClient.rotations == 5)
        }
    }

    @Test("A token is refused when forged, another container's, revoked, or without an API token", arguments: TestEngine.allCases)
    func refusals(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        let (ada, token) = try await Self.signIn(store, email: "ada@example.org", givenName: "Ada")
        let otherContainer = try await WebAuthSessions(store: store).open(userRecordName: ada.userRecordName, container: "iCloud.com.example.other")
        let signIn = "/auth/signin?container=iCloud.com.example.cities"
        try await ServerHarness.withServer(store: store, configuration: Self.configuration()) { server in
            let path = ServerHarness.path("users/caller") + "?ckAPIToken=\(Self.apiToken)&ckWebAuthToken="
            // One character changed: the store's signature no longer holds.
            let forgedToken = String(token.prefix(40)) + (token.dropFirst(40).first == "A" ? "B" : "A") + String(token.dropFirst(41))
            let forged = try await server.send("GET", path + forgedToken)
            #expect(forged.status == 401)
            #expect(forged.errorCode == "AUTHENTICATION_FAILED")
            let foreign = try await server.send("GET", path + otherContainer)
            #expect(foreign.status == 401)
            #expect(foreign.body["reason"]?.stringValue == "ckWebAuthToken was made for another container than 'iCloud.com.example.cities'")
            // A web auth token is a user of an API token: alone, it is no credential.
            let alone = try await server.send("GET", ServerHarness.path("users/caller") + "?ckWebAuthToken=\(token)")
            #expect(alone.status == 421)
            // Percent-encoded, as `encodeURIComponent` may send it, it is the same token.
            let encoded = token.utf8.map { String(format: "%%%02X", $0) }.joined()
            let percent = try await server.send("GET", path + encoded)
            #expect(percent.status == 200)
            let next = try #require(percent.headers["x-apple-cloudkit-web-auth-token"])
            // Revoked: every session of the user ends, and the answer says where to sign in again.
            #expect(try await WebAuthSessions(store: store).revokeAll(userRecordName: ada.userRecordName) == 2)
            let revoked = try await server.send("GET", path + next)
            #expect(revoked.status == 421)
            #expect(revoked.errorCode == "AUTHENTICATION_REQUIRED")
            #expect(revoked.body["redirectURL"]?.stringValue == "http://127.0.0.1:\(server.port)\(signIn)")
            // The sign-in page names the container and how to get a token without a provider.
            let page = try await server.sendForText("GET", signIn)
            #expect(page.status == 200)
            #expect(page.text.contains("<h1>Sign in to iCloud.com.example.cities</h1>"))
            #expect(page.text.contains("query users token"))
        }
    }

    @Test("A session moves on with each answer; the token it replaced works for the grace period only")
    func rotationAndGrace() async throws {
        let store = try TestEngine.sqlite.makeStore()
        let (ada, first) = try await Self.signIn(store, email: "ada@example.org", givenName: "Ada")
        let sessions = WebAuthSessions(store: store, configuration: WebAuthConfiguration(sessionLifetime: 1800, rotationGrace: 60))
        let start = Date()
        let second = try await sessions.authenticate(first, container: Self.container, now: start)
        #expect(second.userRecordName == ada.userRecordName)
        #expect(second.nextToken != first)
        // Parallel requests sent with the first token, within the grace: all get the second one.
        let again = try await sessions.authenticate(first, container: Self.container, now: start.addingTimeInterval(59))
        #expect(again.nextToken == second.nextToken)
        // Past the grace, the replaced token is refused; the current one still moves on.
        await #expect(throws: ServerError.self) { try await sessions.authenticate(first, container: Self.container, now: start.addingTimeInterval(61)) }
        let third = try await sessions.authenticate(second.nextToken, container: Self.container, now: start.addingTimeInterval(61))
        #expect(third.nextToken != second.nextToken)
        // A session unused for its lifetime has ended.
        do {
            _ = try await sessions.authenticate(third.nextToken, container: Self.container, now: start.addingTimeInterval(61 + 1801))
            Issue.record("an expired token was taken")
        } catch {
            #expect(error.code == .authenticationRequired)
            #expect(error.reason == "the web auth token has expired; sign in again")
        }
        // A session that ended is removed when the user opens another: its token, checked at a
        // moment it was still valid, finds no session.
        let ended = try await sessions.open(userRecordName: ada.userRecordName, container: Self.container, now: start)
        _ = try await sessions.open(userRecordName: ada.userRecordName, container: Self.container, now: start.addingTimeInterval(1801))
        do {
            _ = try await sessions.authenticate(ended, container: Self.container, now: start.addingTimeInterval(10))
            Issue.record("a removed session's token was taken")
        } catch {
            #expect(error.reason == "the session of this web auth token has ended (signed out or revoked); sign in again")
        }
        // "Keep me signed in" lasts two weeks.
        let kept = try await sessions.open(userRecordName: ada.userRecordName, container: Self.container, keepsSignedIn: true, now: start)
        let later = try await sessions.authenticate(kept, container: Self.container, now: start.addingTimeInterval(13 * 86_400))
        #expect(later.userRecordName == ada.userRecordName)
    }

    @Test("Requests sent in parallel with one token all pass, and a restarted server takes the token")
    func parallelRequestsAndRestart() async throws {
        let store = try TestEngine.sqlite.makeStore()
        let (_, token) = try await Self.signIn(store, email: "ada@example.org", givenName: "Ada")
        let next = try await ServerHarness.withServer(store: store, configuration: Self.configuration()) { server in
            let path = ServerHarness.path("users/caller") + "?ckAPIToken=\(Self.apiToken)&ckWebAuthToken=\(token)"
            let answers = try await withThrowingTaskGroup(of: ServerHarness.Answer.self) { group in
                for _ in 0..<6 { group.addTask { try await server.send("GET", path) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.map(\.status) == Array(repeating: 200, count: 6))
            // One request moved the session on; the others were answered with the token it made.
            #expect(Set(answers.compactMap { $0.headers["x-apple-cloudkit-web-auth-token"] }).count == 1)
            return try #require(answers.first?.headers["x-apple-cloudkit-web-auth-token"])
        }
        try await ServerHarness.withServer(store: store, configuration: Self.configuration()) { server in
            let answer = try await server.send("GET", ServerHarness.path("users/caller") + "?ckAPIToken=\(Self.apiToken)&ckWebAuthToken=\(next)")
            #expect(answer.status == 200)
        }
    }

    @Test("The user routes answer as CloudKit's reference shapes them, finding discoverable users only")
    func userRoutes() async throws {
        let store = try TestEngine.sqlite.makeStore()
        let (ada, token) = try await Self.signIn(store, email: "ada@example.org", givenName: "Ada")
        let (bob, _) = try await Self.signIn(store, email: "Bob@Example.org", givenName: "Bob")
        let (hidden, _) = try await Self.signIn(store, email: "hidden@example.org", givenName: "Hidden", discoverable: false)
        try await ServerHarness.withServer(store: store, configuration: Self.configuration()) { server in
            let client = SignedInClient(server, token: token)
            let current = try await client.get("users/current")
            #expect(current.body == ["userRecordName": .string(ada.userRecordName), "firstName": "Ada"])
            let discover = try await client.post("users/discover", ["lookupInfos": [
                ["emailAddress": "bob@example.org"], ["userRecordName": .string(hidden.userRecordName)], ["emailAddress": "nobody@example.org"],
            ]], database: "public")
            #expect(discover.body == ["users": [[
                "userRecordName": .string(bob.userRecordName), "nameComponents": ["givenName": "Bob"],
                "lookupInfo": ["emailAddress": "bob@example.org"],
            ]]])
            let byEmail = try await client.post("users/lookup/email", ["users": [["emailAddress": "BOB@example.org"], ["emailAddress": "hidden@example.org"]]],
                                                database: "public")
            #expect(byEmail.body == ["users": [["userRecordName": .string(bob.userRecordName), "firstName": "Bob", "emailAddress": "bob@example.org"]]])
            let byID = try await client.post("users/lookup/id", ["users": [["userRecordName": .string(bob.userRecordName)]]], database: "public")
            #expect(byID.body == ["users": [["userRecordName": .string(bob.userRecordName), "firstName": "Bob"]]])
            let malformed = try await client.post("users/lookup/id", ["users": [["emailAddress": "bob@example.org"]]], database: "public")
            #expect(malformed.body["reason"]?.stringValue == "users[0].userRecordName is missing (a string)")
            // An API token without a user: where to sign in.
            let anonymous = try await server.send("POST", ServerHarness.path("users/discover") + "?ckAPIToken=\(Self.apiToken)", body: "{}")
            #expect(anonymous.status == 421)
            #expect(anonymous.body["redirectURL"]?.stringValue == "http://127.0.0.1:\(server.port)/auth/signin?container=iCloud.com.example.cities")
        }
    }

    @Test("Pages of an allowed origin call the server: preflight, and answers their script may read")
    func crossOrigin() async throws {
        let store = try TestEngine.sqlite.makeStore()
        let (_, token) = try await Self.signIn(store, email: "ada@example.org", givenName: "Ada")
        try await ServerHarness.withServer(store: store, configuration: Self.configuration(allowedOrigins: ["https://notes.example/"])) { server in
            let path = ServerHarness.path("records/query")
            let preflight = try await server.send("OPTIONS", path, headers: [
                "Origin": "https://notes.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type",
            ])
            #expect(preflight.status == 204)
            #expect(preflight.headers["access-control-allow-origin"] == "https://notes.example")
            #expect(preflight.headers["access-control-allow-methods"] == "GET, POST")
            #expect(preflight.headers["access-control-allow-headers"]?.contains("X-Apple-CloudKit-Web-Auth-Token") == true)
            #expect(preflight.headers["vary"] == "Origin")
            let answer = try await server.send("GET", ServerHarness.path("users/caller") + "?ckAPIToken=\(Self.apiToken)&ckWebAuthToken=\(token)",
                                               headers: ["Origin": "https://notes.example"])
            #expect(answer.status == 200)
            #expect(answer.headers["access-control-allow-origin"] == "https://notes.example")
            #expect(answer.headers["access-control-expose-headers"] == "X-Apple-CloudKit-Web-Auth-Token, Retry-After")
            // An error's answer is readable too (the page must see the sign-in redirect).
            let refused = try await server.send("POST", path + "?ckAPIToken=\(Self.apiToken)", body: "{}",
                                                headers: ["Origin": "https://notes.example"])
            #expect(refused.status == 400)
            #expect(refused.errorCode == "BAD_REQUEST")
            #expect(refused.headers["access-control-allow-origin"] == "https://notes.example")
            // Another origin gets no CORS header, and no preflight.
            let other = try await server.send("OPTIONS", path, headers: ["Origin": "https://evil.example", "Access-Control-Request-Method": "POST"])
            #expect(other.status == 405)
            #expect(other.headers["access-control-allow-origin"] == nil)
        }
    }
}

/// Two servers over one PostgreSQL store: a token one hands out works on the other.
@Suite(.enabled(if: PostgresTestServer.url != nil || PostgresTestServer.isRequired, "QUERY_TEST_POSTGRES_URL is not set"))
struct WebAuthTwoServersTests {
    @Test func aTokenFromOneServerWorksOnTheOther() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let first = try await Store.open(url: url)
        let second = try await Store.open(url: url)
        let (ada, token) = try await WebAuthTests.signIn(first, email: "ada@example.org", givenName: "Ada")
        try await ServerHarness.withServer(store: first, configuration: WebAuthTests.configuration()) { one in
            try await ServerHarness.withServer(store: second, configuration: WebAuthTests.configuration()) { other in
                let path = ServerHarness.path("users/caller") + "?ckAPIToken=\(WebAuthTests.apiToken)&ckWebAuthToken="
                let onOne = try await one.send("GET", path + token)
                #expect(onOne.status == 200)
                let next = try #require(onOne.headers["x-apple-cloudkit-web-auth-token"])
                let onOther = try await other.send("GET", path + next)
                #expect(onOther.status == 200)
                #expect(onOther.body["userRecordName"]?.stringValue == ada.userRecordName)
            }
        }
    }
}
