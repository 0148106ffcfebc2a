import EngineTestSupport
import Foundation
import Logging
import PredicateLanguage
@testable import QueryServer
import RecordStore
import Testing

/// The administration routes of the public database's security roles: `roles/list`,
/// `roles/assign` and `roles/remove`, their exact answers, who may call them (a key with full
/// access, the administrator token, anyone on a server without credentials) and who may not (an
/// API token, a signed-in user, a key held to the roles, a wrong administrator token), and their
/// refusals of unknown roles, missing fields and other databases.
@Suite struct RoleRoutesTests {
    static let administratorToken = "admin-token-9c1e"
    static let heldKeyID = "held0key0id"
    static let schema = """
        DEFINE SCHEMA
            CREATE ROLE Moderator;
            CREATE ROLE Editor;
            RECORD TYPE Note (title STRING QUERYABLE, GRANT WRITE TO Moderator, GRANT READ TO "_world");
        """
    static let refusal = "administration needs a server-to-server key with full access or the administrator token (Authorization: Bearer TOKEN)"

    /// A store with the schema's roles and two users, ada and bob.
    static func store() async throws -> (store: Store, ada: ServerUser, bob: ServerUser) {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.define(schema, in: store)
        let directory = UserDirectory(store: store)
        let ada = try await directory.add(ServerUser(givenName: "Ada", emailAddress: "ada@example.org"))
        let bob = try await directory.add(ServerUser(givenName: "Bob", emailAddress: "bob@example.org"))
        return (store, ada, bob)
    }

    /// Users as a role's entry lists them: by record name (random here, so sorted by the test too).
    static func users(_ users: ServerUser...) -> JSONValue {
        .array(users.sorted { $0.userRecordName < $1.userRecordName }.map(user))
    }

    /// A server with a key of full access, a key held to the roles, an API token and the administrator token.
    static func configuration(_ key: TestKey, heldKey: TestKey) throws -> CloudKitServer.Configuration {
        var configuration = try AuthenticationTests.configuration(key)
        let path = TestEngine.temporaryDatabasePath("held-key") + ".pem"
        try heldKey.publicPEM().write(toFile: path, atomically: true, encoding: .utf8)
        try configuration.credentials.addKey("\(heldKeyID)=\(path)")
        configuration.keysHeldToSecurityRoles = [heldKeyID]
        configuration.credentials.apiTokens.insert(WebAuthTests.apiToken)
        configuration.administratorToken = administratorToken
        configuration.failedAuthenticationRate = 0
        return configuration
    }

    /// Sends a body to a roles route with the administrator token.
    static func administer(_ server: ServerHarness, _ operation: String, _ body: JSONValue? = nil, token: String = administratorToken,
                           environment: String = "production", database: String = "public") async throws -> ServerHarness.Answer {
        let path = ServerHarness.path(operation, environment: environment, database: database)
        let headers = ["Authorization": "Bearer \(token)"]
        guard let body else { return try await server.send("GET", path, headers: headers) }
        return try await server.send("POST", path, body: String(decoding: body.jsonBytes(), as: UTF8.self), headers: headers)
    }

    static func user(_ user: ServerUser) -> JSONValue {
        ["userRecordName": .string(user.userRecordName), "emailAddress": .string(user.emailAddress ?? "")]
    }

    @Test func listAssignAndRemoveAnswerEachRoleWithItsUsers() async throws {
        let (store, ada, bob) = try await Self.store()
        let key = TestKey()
        try await ServerHarness.withServer(store: store, configuration: try Self.configuration(key, heldKey: TestKey())) { server in
            // Every declared role, in declaration order, even with no users.
            let empty = try await Self.administer(server, "roles/list")
            #expect(empty.status == 200)
            #expect(empty.body == ["roles": [["name": "Moderator", "users": []], ["name": "Editor", "users": []]]])
            #expect(try await Self.administer(server, "roles/list", [:]).body == empty.body)

            // By record name, then by email address: the role's new entry, its users by record name.
            let first = try await Self.administer(server, "roles/assign", ["role": "Moderator", "userRecordName": .string(bob.userRecordName)])
            #expect(first.status == 200)
            #expect(first.body == ["name": "Moderator", "users": [Self.user(bob)]])
            let second = try await Self.administer(server, "roles/assign", ["role": "Moderator", "emailAddress": "ada@example.org"])
            #expect(second.body == ["name": "Moderator", "users": Self.users(ada, bob)])
            // Giving it again changes nothing.
            let again = try await Self.administer(server, "roles/assign", ["role": "Moderator", "userRecordName": .string(ada.userRecordName)])
            #expect(again.body == second.body)
            _ = try await Self.administer(server, "roles/assign", ["role": "Editor", "userRecordName": .string(ada.userRecordName)])
            #expect(try await store.roles(of: ada.userRecordName) == ["Moderator", "Editor"])
            #expect(try await store.roles(of: bob.userRecordName) == ["Moderator"])
            #expect(try await Self.administer(server, "roles/list").body == ["roles": [
                ["name": "Moderator", "users": Self.users(ada, bob)], ["name": "Editor", "users": [Self.user(ada)]],
            ]])

            // Taken away, by record name and by email address.
            let removed = try await Self.administer(server, "roles/remove", ["role": "Moderator", "userRecordName": .string(ada.userRecordName)])
            #expect(removed.status == 200)
            #expect(removed.body == ["name": "Moderator", "users": [Self.user(bob)]])
            let byEmail = try await Self.administer(server, "roles/remove", ["role": "Editor", "emailAddress": "ada@example.org"])
            #expect(byEmail.body == ["name": "Editor", "users": []])
            #expect(try await store.roles(of: ada.userRecordName) == [])

            // A holder the server does not know (a user gone since) shows without email, and is taken away by record name.
            let departed = "_" + String(repeating: "0", count: 32)
            try await store.assignRole("Editor", to: departed)
            #expect(try await Self.administer(server, "roles/list").body == ["roles": [
                ["name": "Moderator", "users": [Self.user(bob)]], ["name": "Editor", "users": [["userRecordName": .string(departed)]]],
            ]])
            let gone = try await Self.administer(server, "roles/remove", ["role": "Editor", "userRecordName": .string(departed)])
            #expect(gone.body == ["name": "Editor", "users": []])
            #expect(try await store.roleAssignments() == ["Moderator": [bob.userRecordName]])
        }
    }

    @Test func onlyAFullKeyTheAdministratorTokenOrAnOpenServerAdministers() async throws {
        let (store, ada, _) = try await Self.store()
        let key = TestKey()
        let heldKey = TestKey()
        let signedIn = try await WebAuthSessions(store: store).open(userRecordName: ada.userRecordName, container: WebAuthTests.container)
        let assign = #"{"role": "Moderator", "userRecordName": "\#(ada.userRecordName)"}"#
        try await ServerHarness.withServer(store: store, configuration: try Self.configuration(key, heldKey: heldKey)) { server in
            let path = ServerHarness.path("roles/assign")
            let list = ServerHarness.path("roles/list")
            // Refused: an API token, a signed-in user, a key held to the roles, a wrong administrator token.
            let refused: [(String, ServerHarness.Answer)] = [
                ("API token", try await server.send("POST", path + "?ckAPIToken=\(AuthenticationTests.token)", body: assign)),
                ("signed-in user", try await server.send("POST", path + "?ckAPIToken=\(WebAuthTests.apiToken)&ckWebAuthToken=\(signedIn)", body: assign)),
                ("held key", try await server.send("POST", path, body: assign,
                                                   headers: try AuthenticationTests.signedHeaders(heldKey, keyID: Self.heldKeyID, body: assign, path: path))),
                ("wrong token", try await server.send("POST", path, body: assign, headers: ["Authorization": "Bearer \(Self.administratorToken)x"])),
                ("wrong token with a key", try await server.send("POST", path, body: assign, headers: try AuthenticationTests.signedHeaders(
                    key, body: assign, path: path).merging(["Authorization": "Bearer not-it"]) { $1 })),
                ("API token listing", try await server.send("GET", list + "?ckAPIToken=\(AuthenticationTests.token)")),
            ]
            for (caller, answer) in refused {
                #expect(answer.status == 403, "\(caller): \(answer.body)")
                #expect(answer.errorCode == "ACCESS_DENIED", "\(caller)")
                #expect(answer.body["reason"]?.stringValue?.hasPrefix(Self.refusal) == true, "\(caller): \(answer.body)")
            }
            #expect(refused[0].1.body["reason"] == .string(Self.refusal + "; an API token or a signed-in user is never an administrator"))
            #expect(refused[2].1.body["reason"] == .string(Self.refusal + "; this key is held to the security roles"))
            #expect(refused[3].1.body["reason"] == .string(Self.refusal + " (the bearer token sent is not the administrator token)"))
            // No credential at all: what administration needs.
            let anonymous = try await server.send("GET", list)
            #expect(anonymous.status == 421)
            #expect(anonymous.body["reason"] == .string(Self.refusal))
            #expect(try await store.roles(of: ada.userRecordName) == [])
            // The administrator token serves the administration routes only.
            let reading = try await server.send("POST", ServerHarness.path("records/query"), body: #"{"query": {"recordType": "Note"}}"#,
                                                headers: ["Authorization": "Bearer \(Self.administratorToken)"])
            #expect(reading.status == 421)

            // Allowed: a key with full access, and the administrator token.
            let byKey = try await server.send("POST", path, body: assign, headers: try AuthenticationTests.signedHeaders(key, body: assign, path: path))
            #expect(byKey.status == 200)
            #expect(byKey.body == ["name": "Moderator", "users": [Self.user(ada)]])
            let byToken = try await Self.administer(server, "roles/list")
            #expect(byToken.status == 200)
            #expect(byToken.body["roles"]?.arrayValue?.first == ["name": "Moderator", "users": [Self.user(ada)]])
        }
        // A server without credentials is open to loopback: anyone there administers.
        try await ServerHarness.withServer(store: store) { server in
            let removed = try await server.post("roles/remove", ["role": "Moderator", "userRecordName": .string(ada.userRecordName)])
            #expect(removed.status == 200)
            #expect(removed.body == ["name": "Moderator", "users": []])
        }
        #expect(try await store.roles(of: ada.userRecordName) == [])
    }

    @Test func unknownRolesMissingFieldsUnknownUsersAndOtherDatabasesAreRefused() async throws {
        let (store, ada, _) = try await Self.store()
        try await ServerHarness.withServer(store: store, configuration: try Self.configuration(TestKey(), heldKey: TestKey())) { server in
            let cases: [(String, JSONValue, Int, String)] = [
                ("roles/assign", ["role": "Admin", "userRecordName": .string(ada.userRecordName)], 400,
                 "There is no role 'Admin': the schema declares 'Moderator', 'Editor'"),
                ("roles/remove", ["role": "Admin", "userRecordName": .string(ada.userRecordName)], 400,
                 "There is no role 'Admin': the schema declares 'Moderator', 'Editor'"),
                ("roles/assign", ["userRecordName": .string(ada.userRecordName)], 400,
                 "role is missing (the name of a role the schema declares (CREATE ROLE))"),
                ("roles/assign", ["role": "Moderator"], 400,
                 "userRecordName is missing (the user's record name; or emailAddress, the user's email address)"),
                ("roles/remove", ["role": "Moderator", "userRecordName": .string(ada.userRecordName), "emailAddress": "ada@example.org"], 400,
                 "name the user once: by userRecordName or by emailAddress, not both"),
                ("roles/assign", ["role": "Moderator", "userRecordName": 7], 400, "userRecordName is a user's record name, not a number"),
                ("roles/assign", ["role": "Moderator", "emailAddress": "nobody@example.org"], 404,
                 "no user has the email address 'nobody@example.org' (see query users list)"),
                ("roles/assign", ["role": "Moderator", "userRecordName": "_0123"], 404, "no user is named '_0123' (see query users list)"),
            ]
            for (operation, body, status, reason) in cases {
                let answer = try await Self.administer(server, operation, body)
                #expect(answer.status == status, "\(operation) \(body): \(answer.body)")
                #expect(answer.errorCode == (status == 400 ? "BAD_REQUEST" : "NOT_FOUND"), "\(operation) \(body)")
                #expect(answer.body["reason"] == .string(reason), "\(operation) \(body)")
            }
            // The public database's alone.
            for operation in ["roles/list", "roles/assign", "roles/remove"] {
                let body: JSONValue = ["role": "Moderator", "userRecordName": .string(ada.userRecordName)]
                let privately = try await Self.administer(server, operation, body, database: "private")
                #expect(privately.status == 400)
                #expect(privately.body["reason"] == "security roles are the public database's: the private database has none")
                let shared = try await Self.administer(server, operation, body, database: "shared")
                #expect(shared.status == 400)
                #expect(shared.body["reason"] == "security roles are the public database's: the shared database has none")
            }
        }
        #expect(try await store.roleAssignments() == [:])
    }

    @Test func eachEnvironmentKeepsItsOwnRolesAndTheServersOverAStoreAgree() async throws {
        TestEngine.registerEngines()
        let path = TestEngine.temporaryDatabasePath("roles-two-servers")
        let one = try Store.open(StoreLocation("sqlite:" + path))
        let other = try Store.open(StoreLocation("sqlite:" + path))
        try await ServerHarness.define(Self.schema, in: one)
        let ada = try await UserDirectory(store: one).add(ServerUser(givenName: "Ada", emailAddress: "ada@example.org"))
        let configuration = try Self.configuration(TestKey(), heldKey: TestKey())
        try await ServerHarness.withServer(store: one, configuration: configuration) { first in
            try await ServerHarness.withServer(store: other, configuration: configuration) { second in
                let assigned = try await Self.administer(first, "roles/assign", ["role": "Editor", "emailAddress": "ada@example.org"])
                #expect(assigned.status == 200)
                // At once on the other server over the same store.
                #expect(try await Self.administer(second, "roles/list").body == ["roles": [
                    ["name": "Moderator", "users": []], ["name": "Editor", "users": [Self.user(ada)]],
                ]])
                // The development environment has a store, and so roles, of its own.
                try await ServerHarness.define(Self.schema, in: try await second.developmentStore())
                let development = try await Self.administer(second, "roles/list", environment: "development")
                #expect(development.body == ["roles": [["name": "Moderator", "users": []], ["name": "Editor", "users": []]]])
            }
        }
        #expect(try await other.roles(of: ada.userRecordName) == ["Editor"])
    }

    @Test func theAdministratorIsLoggedByNameAndTheTokenNever() async throws {
        let (store, ada, _) = try await Self.store()
        var configuration = try Self.configuration(TestKey(), heldKey: TestKey())
        configuration.logsRequests = true
        let lines = RequestLogTests.Lines()
        let logger = Logger(label: "query.serve") { label in JSONLinesLogHandler(label: label, write: lines.append) }
        try await ServerHarness.withServer(store: store, configuration: configuration, logger: logger) { server in
            let answer = try await Self.administer(server, "roles/assign", ["role": "Moderator", "userRecordName": .string(ada.userRecordName)])
            #expect(answer.status == 200)
            let wrong = try await Self.administer(server, "roles/list", token: "wrong-\(Self.administratorToken)")
            #expect(wrong.status == 403)
        }
        let parsed = try lines.all.map { try JSONValue(parsing: Data($0.utf8)) }
        let requests = parsed.filter { $0["message"]?.stringValue == "request" }
        #expect(requests.map { $0["route"]?.stringValue } == ["roles/assign", "roles/list"], "\(requests)")
        #expect(requests.map { $0["status"]?.stringValue } == ["200", "403"])
        // The administrator by name; a refused caller is no one yet.
        #expect(requests.map { $0["caller"]?.stringValue } == ["administrator", nil])
        #expect(!lines.all.contains { $0.contains(Self.administratorToken) })
    }

    @Test func theRoutesAreDeclaredForTheAdministrator() throws {
        let routes = CloudKitServer(store: try TestEngine.sqlite.makeStore(), configuration: .init(port: 0)).declaredRoutes()
        let administering = routes.filter { $0.access == .administer }.map { "\($0.method.rawValue) \($0.path)" }
        // The users to act as (ActingAsUserRoutesTests).
        #expect(administering == ["GET \(ServerRoutes.databasePrefix)/users/list"] + ["GET", "POST"].map { "\($0) \(ServerRoutes.databasePrefix)/roles/list" }
            + ["POST \(ServerRoutes.databasePrefix)/roles/assign", "POST \(ServerRoutes.databasePrefix)/roles/remove"]
            // The development schema's administration (SchemaAdministrationRoutesTests, DevelopmentResetRoutesTests).
            + ["schema/fields/add", "schema/indexes/remove", "schema/deploy", "schema/reset"].map { "POST \(ServerRoutes.databasePrefix)/\($0)" }
            // The Telemetry tab (ConsoleTelemetryRoutesTests).
            + ["GET \(ServerRoutes.databasePrefix)/telemetry"])
        #expect(throws: Never.self) { try RequestAuthenticator.check(.key("k"), access: .administer, database: .public) }
        #expect(throws: Never.self) { try RequestAuthenticator.check(.anyone, access: .administer, database: .public) }
        #expect(throws: Never.self) { try RequestAuthenticator.check(.administrator, access: .administer, database: .public) }
        for caller in [RequestAuthenticator.Caller.apiToken, .user("_u"), .key("held")] {
            #expect(throws: ServerError.self) { try RequestAuthenticator.check(caller, access: .administer, database: .public, keysHeldToRoles: ["held"]) }
        }
        #expect(throws: ServerError.self) { try RequestAuthenticator.check(.administrator, access: .read, database: .public) }
    }
}
