import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import QueryServer
import RecordStore
import Testing

/// An administrator acting as a user (`X-Query-Act-As`, the console's "act as"): their private
/// and shared databases answer as that user's requests would, for reading only; `users/list`
/// names the users to pick from. Nobody but an administrator acts as anyone: an API token, a
/// signed-in user, a key held to the security roles and a wrong administrator token are refused.
@Suite struct ActingAsUserRoutesTests {
    /// Ada and Bob signed in, each with a private note, on a server with RoleRoutesTests' credentials.
    static func withServer(_ body: @Sendable (ServerHarness, _ ada: WebAuthTests.SignedInClient, _ adaUser: ServerUser, _ bobUser: ServerUser) async throws -> Void) async throws {
        let store = try TestEngine.sqlite.makeStore()
        let (ada, adaToken) = try await WebAuthTests.signIn(store, email: "ada@example.org", givenName: "Ada")
        let (bob, bobToken) = try await WebAuthTests.signIn(store, email: "bob@example.org", givenName: "Bob")
        try await ServerHarness.withServer(store: store, configuration: try RoleRoutesTests.configuration(TestKey(), heldKey: TestKey())) { server in
            let adaClient = WebAuthTests.SignedInClient(server, token: adaToken)
            let bobClient = WebAuthTests.SignedInClient(server, token: bobToken)
            #expect(try await adaClient.post("records/modify", WebAuthTests.create("a1", title: "Ada's"), database: "private").status == 200)
            #expect(try await bobClient.post("records/modify", WebAuthTests.create("b1", title: "Bob's"), database: "private").status == 200)
            try await body(server, adaClient, ada, bob)
        }
    }

    /// A request with the administrator token (or `token`) acting as `user`.
    static func acting(_ server: ServerHarness, as user: String, _ operation: String, _ body: JSONValue? = WebAuthTests.notesQuery,
                       database: String = "private", token: String = RoleRoutesTests.administratorToken, query: String = "") async throws -> ServerHarness.Answer {
        let path = ServerHarness.path(operation, environment: "development", database: database) + query
        var headers = ["X-Query-Act-As": user]
        if !token.isEmpty { headers["Authorization"] = "Bearer \(token)" }
        guard let body else { return try await server.send("GET", path, headers: headers) }
        return try await server.send("POST", path, body: String(decoding: body.jsonBytes(), as: UTF8.self), headers: headers)
    }

    @Test func theAdministratorReadsEachUsersPrivateAndSharedDatabase() async throws {
        try await Self.withServer { server, _, ada, bob in
            let adaNotes = try await Self.acting(server, as: ada.userRecordName, "records/query")
            #expect(adaNotes.status == 200, "\(adaNotes.body)")
            #expect(adaNotes.recordNames == ["a1"])
            #expect(adaNotes.records.first?["created"]?["userRecordName"]?.stringValue == ada.userRecordName)
            #expect(try await Self.acting(server, as: bob.userRecordName, "records/query").recordNames == ["b1"])
            let zones = try await Self.acting(server, as: ada.userRecordName, "zones/list", nil)
            #expect(zones.status == 200, "\(zones.body)")
            #expect(zones.body["zones"]?.arrayValue?.compactMap { $0["zoneID"]?["zoneName"]?.stringValue } == ["_defaultZone"])
            // Their shared database: nobody shared anything with Ada.
            let shared = try await Self.acting(server, as: ada.userRecordName, "zones/list", nil, database: "shared")
            #expect(shared.status == 200, "\(shared.body)")
            #expect(shared.body["zones"] == [])

            // The users to pick from, by record name, with their email addresses.
            let users = try await RoleRoutesTests.administer(server, "users/list", environment: "development", database: "private")
            #expect(users.status == 200, "\(users.body)")
            let expected: [JSONValue] = [ada, bob].sorted { $0.userRecordName < $1.userRecordName }.map { $0.userDictionary(withEmail: true) }
            #expect(users.body == ["users": .array(expected)])
        }
    }

    @Test func actingIsForReadingTheUsersDatabasesOnly() async throws {
        try await Self.withServer { server, _, ada, _ in
            let write = try await Self.acting(server, as: ada.userRecordName, "records/modify", WebAuthTests.create("x1", title: "Not Ada's"))
            #expect(write.status == 400, "\(write.body)")
            #expect(write.errorCode == "BAD_REQUEST")
            #expect(write.body["reason"] == "acting as a user (X-Query-Act-As) is for reading: this route writes or administers")
            let publicDatabase = try await Self.acting(server, as: ada.userRecordName, "records/query", database: "public")
            #expect(publicDatabase.status == 400)
            #expect(publicDatabase.body["reason"] == "acting as a user (X-Query-Act-As) reads their private or shared database, not the public one")
            let badName = try await Self.acting(server, as: "ada; drop", "records/query")
            #expect(badName.status == 400)
            #expect(badName.body["reason"] == "X-Query-Act-As names a user by record name: '_' and 1 to 64 ASCII letters, digits, '-' or '_'")
        }
    }

    @Test func nobodyButAnAdministratorActsAsAUser() async throws {
        try await Self.withServer { server, adaClient, ada, bob in
            let refusal = "only an administrator acts as a user: " + RoleRoutesTests.refusal
            // An API token alone.
            let byToken = try await Self.acting(server, as: ada.userRecordName, "records/query", token: "", query: "?ckAPIToken=\(WebAuthTests.apiToken)")
            #expect(byToken.status == 403, "\(byToken.body)")
            #expect(byToken.errorCode == "ACCESS_DENIED")
            #expect(byToken.body["reason"] == .string(refusal + "; an API token or a signed-in user is never an administrator"))
            // Ada, signed in, acting as Bob.
            let adaToken = await adaClient.token
            let byAda = try await Self.acting(server, as: bob.userRecordName, "records/query", token: "",
                                              query: "?ckAPIToken=\(WebAuthTests.apiToken)&ckWebAuthToken=\(adaToken)")
            #expect(byAda.status == 403, "\(byAda.body)")
            #expect(byAda.errorCode == "ACCESS_DENIED")
            #expect(byAda.recordNames == [])
            // A wrong administrator token.
            let wrong = try await Self.acting(server, as: ada.userRecordName, "records/query", token: "not-the-token")
            #expect(wrong.status == 403)
            #expect(wrong.body["reason"] == .string(RoleRoutesTests.refusal + " (the bearer token sent is not the administrator token)"))
            // No credential at all.
            let anonymous = try await Self.acting(server, as: ada.userRecordName, "records/query", token: "")
            #expect(anonymous.status == 421, "\(anonymous.body)")
            // Nor may they list the users.
            let listByToken = try await server.send("GET", ServerHarness.path("users/list", environment: "development") + "?ckAPIToken=\(WebAuthTests.apiToken)")
            #expect(listByToken.status == 403)
            #expect(listByToken.errorCode == "ACCESS_DENIED")
        }
    }

    @Test func aKeyWithFullAccessActsAsAUserAndAKeyHeldToRolesDoesNot() async throws {
        let store = try TestEngine.sqlite.makeStore()
        let (ada, adaToken) = try await WebAuthTests.signIn(store, email: "ada@example.org", givenName: "Ada")
        let (key, heldKey) = (TestKey(), TestKey())
        try await ServerHarness.withServer(store: store, configuration: try RoleRoutesTests.configuration(key, heldKey: heldKey)) { server in
            #expect(try await WebAuthTests.SignedInClient(server, token: adaToken).post("records/modify", WebAuthTests.create("a1", title: "Ada's"), database: "private").status == 200)
            let path = ServerHarness.path("records/query", environment: "development", database: "private")
            let body = String(decoding: WebAuthTests.notesQuery.jsonBytes(), as: UTF8.self)
            var full = try AuthenticationTests.signedHeaders(key, body: body, path: path)
            full["X-Query-Act-As"] = ada.userRecordName
            let byKey = try await server.send("POST", path, body: body, headers: full)
            #expect(byKey.status == 200, "\(byKey.body)")
            #expect(byKey.recordNames == ["a1"])
            var held = try AuthenticationTests.signedHeaders(heldKey, keyID: RoleRoutesTests.heldKeyID, body: body, path: path)
            held["X-Query-Act-As"] = ada.userRecordName
            let byHeldKey = try await server.send("POST", path, body: body, headers: held)
            #expect(byHeldKey.status == 403, "\(byHeldKey.body)")
            #expect(byHeldKey.body["reason"] == .string("only an administrator acts as a user: " + RoleRoutesTests.refusal + "; this key is held to the security roles"))
            // Without the header, the key reads its own private database, not Ada's.
            let own = try await server.send("POST", path, body: body, headers: try AuthenticationTests.signedHeaders(key, body: body, path: path))
            #expect(own.recordNames == [])
        }
    }
}
