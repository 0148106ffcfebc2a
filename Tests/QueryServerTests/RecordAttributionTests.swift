import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import QueryServer
import RecordStore
import Testing

/// Issue #46, attribution: the records a signed-in user saves name them in `created` and
/// `modified`, stored with the record; filters and sorts on `___createdBy` find them; and in the
/// public database, until security roles are declared, only a record's creator changes or
/// deletes it (CloudKit's defaults: the world reads, signed-in users create, creators write).
@Suite struct RecordAttributionTests {
    typealias Client = WebAuthTests.SignedInClient

    static func operation(_ type: String, _ recordName: String, title: String, changeTag: String? = nil) -> JSONValue {
        var record: [String: JSONValue] = ["recordName": .string(recordName), "recordType": "Note", "fields": ["title": ["value": .string(title)]]]
        if let changeTag { record["recordChangeTag"] = .string(changeTag) }
        return ["operationType": .string(type), "record": .object(record)]
    }

    static func modify(_ operations: JSONValue...) -> JSONValue { ["operations": .array(operations)] }

    static func query(filter: JSONValue? = nil, sortBy: JSONValue) -> JSONValue {
        var query: [String: JSONValue] = ["recordType": "Note", "sortBy": sortBy]
        if let filter { query["filterBy"] = [filter] }
        return ["query": .object(query)]
    }

    /// The change tag of a public record as the client reads it.
    static func changeTag(_ recordName: String, _ client: Client) async throws -> String {
        let answer = try await client.post("records/lookup", ["records": [["recordName": .string(recordName)]]], database: "public")
        return try #require(answer.records.first?["recordChangeTag"]?.stringValue)
    }

    /// Runs `body` with a server over a fresh store of an engine and two signed-in users, Ada
    /// and Bob, each with a client of their own.
    static func withAdaAndBob(
        _ engine: TestEngine, _ body: @Sendable (_ ada: ServerUser, _ adaClient: Client, _ bob: ServerUser, _ bobClient: Client) async throws -> Void
    ) async throws {
        let store = try engine.makeStore()
        let (ada, adaToken) = try await WebAuthTests.signIn(store, email: "ada@example.org", givenName: "Ada")
        let (bob, bobToken) = try await WebAuthTests.signIn(store, email: "bob@example.org", givenName: "Bob")
        try await ServerHarness.withServer(store: store, configuration: WebAuthTests.configuration()) { server in
            try await body(ada, Client(server, token: adaToken), bob, Client(server, token: bobToken))
        }
    }

    @Test("A signed-in user's public records name them, and only they change or delete them", arguments: TestEngine.allCases)
    func creatorsWrite(engine: TestEngine) async throws {
        try await Self.withAdaAndBob(engine) { ada, adaClient, bob, bobClient in
            #expect(try await adaClient.post("records/modify", Self.modify(Self.operation("create", "pa", title: "Ada's")), database: "public").status == 200)
            #expect(try await bobClient.post("records/modify", Self.modify(Self.operation("create", "pb", title: "Bob's")), database: "public").status == 200)

            let everyone = try await bobClient.post("records/query", Self.query(sortBy: [["systemFieldName": "recordName"]]), database: "public")
            #expect(everyone.recordNames == ["pa", "pb"])
            #expect(everyone.records.map { $0["created"]?["userRecordName"]?.stringValue } == [ada.userRecordName, bob.userRecordName])
            #expect(everyone.records.map { $0["modified"]?["userRecordName"]?.stringValue } == [ada.userRecordName, bob.userRecordName])

            // Bob may read Ada's record, not change or delete it, however he asks.
            let tag = try await Self.changeTag("pa", bobClient)
            for operation in [Self.operation("update", "pa", title: "Bob was here", changeTag: tag),
                              Self.operation("forceUpdate", "pa", title: "Bob was here"),
                              Self.operation("replace", "pa", title: "Bob was here", changeTag: tag),
                              Self.operation("forceReplace", "pa", title: "Bob was here"),
                              ["operationType": "delete", "record": ["recordName": "pa", "recordChangeTag": .string(tag)]],
                              ["operationType": "forceDelete", "record": ["recordName": "pa"]]] {
                let refused = try await bobClient.post("records/modify", Self.modify(operation), database: "public")
                #expect(refused.status == 200)
                #expect(refused.records.first?["serverErrorCode"] == "ACCESS_DENIED", "\(operation)")
            }
            // An atomic request with one refused operation writes nothing.
            let atomic = try await bobClient.post(
                "records/modify", Self.modify(Self.operation("create", "pc", title: "Bob's second"), Self.operation("forceUpdate", "pa", title: "Bob was here")),
                database: "public")
            #expect(atomic.records.map { $0["serverErrorCode"]?.stringValue } == ["ATOMIC_ERROR", "ACCESS_DENIED"])
            let unchanged = try await adaClient.post("records/lookup", ["records": [["recordName": "pa"], ["recordName": "pc"]]], database: "public")
            #expect(unchanged.records.first?["fields"]?["title"]?["value"] == "Ada's")
            #expect(unchanged.records.first?["recordChangeTag"]?.stringValue == tag)
            #expect(unchanged.records.last?["serverErrorCode"] == "NOT_FOUND")

            // Ada changes her own record: she stays its creator and is its last modifier.
            let changed = try await adaClient.post(
                "records/modify", Self.modify(Self.operation("update", "pa", title: "Ada's, again", changeTag: tag)), database: "public")
            #expect(changed.records.first?["created"]?["userRecordName"]?.stringValue == ada.userRecordName)
            #expect(changed.records.first?["modified"]?["userRecordName"]?.stringValue == ada.userRecordName)
            #expect(changed.records.first?["fields"]?["title"]?["value"] == "Ada's, again")
            let deleted = try await adaClient.post("records/modify", Self.modify(["operationType": "forceDelete", "record": ["recordName": "pa"]]), database: "public")
            #expect(deleted.records.first?["deleted"] == true)
        }
    }

    @Test("Filters and sorts on the creator find each user's records", arguments: TestEngine.allCases)
    func filtersAndSortsOnTheCreator(engine: TestEngine) async throws {
        try await Self.withAdaAndBob(engine) { ada, adaClient, bob, bobClient in
            _ = try await adaClient.post("records/modify", Self.modify(Self.operation("create", "a1", title: "1"), Self.operation("create", "a2", title: "2")), database: "public")
            _ = try await bobClient.post("records/modify", Self.modify(Self.operation("create", "b1", title: "3")), database: "public")

            let byRecordName = ["recordName": JSONValue.string(bob.userRecordName)]
            let filters: [JSONValue] = [
                ["comparator": "EQUALS", "fieldName": "___createdBy", "fieldValue": ["value": .object(byRecordName), "type": "REFERENCE"]],
                ["comparator": "EQUALS", "systemFieldName": "createdUserRecordName", "fieldValue": ["value": .object(byRecordName), "type": "REFERENCE"]],
                ["comparator": "EQUALS", "systemFieldName": "createdUserRecordName", "fieldValue": ["value": .string(bob.userRecordName), "type": "STRING"]],
                ["comparator": "EQUALS", "fieldName": "___modifiedBy", "fieldValue": ["value": .object(byRecordName), "type": "REFERENCE"]],
            ]
            for filter in filters {
                let answer = try await adaClient.post("records/query", Self.query(filter: filter, sortBy: [["systemFieldName": "recordName"]]), database: "public")
                #expect(answer.recordNames == ["b1"], "\(filter)")
            }
            let notBob = try await adaClient.post("records/query", Self.query(
                filter: ["comparator": "NOT_EQUALS", "fieldName": "___createdBy", "fieldValue": ["value": .object(byRecordName), "type": "REFERENCE"]],
                sortBy: [["systemFieldName": "recordName"]]), database: "public")
            #expect(notBob.recordNames == ["a1", "a2"])

            // Sorted by creator, then by name: whoever's name sorts first comes first.
            let sorted = try await bobClient.post("records/query", Self.query(
                sortBy: [["systemFieldName": "createdUserRecordName", "ascending": false], ["systemFieldName": "recordName"]]), database: "public")
            #expect(sorted.recordNames == (ada.userRecordName > bob.userRecordName ? ["a1", "a2", "b1"] : ["b1", "a1", "a2"]))
        }
    }

    @Test("A key writes any public record and is named as its modifier; a user is refused a key's record")
    func keysAndUsers() async throws {
        #expect(RequestPrincipal.of(.user("_ada"), database: .public, privateUsers: [:]) == RequestPrincipal(userRecordName: "_ada", followsSecurityRoles: true))
        #expect(RequestPrincipal.of(.user("_ada"), database: .private(user: "user.ada"), privateUsers: [:])
                == RequestPrincipal(userRecordName: "_ada", followsSecurityRoles: false))
        let key = RequestPrincipal.of(.key("key-1"), database: .public, privateUsers: [:])
        #expect(key.followsSecurityRoles == false)
        #expect(key.userRecordName == UserRecordName.owner(of: .private(user: PrivateDatabaseUser.name(keyID: "key-1"))))
        #expect(RequestPrincipal.of(.key("key-1"), database: .public, privateUsers: [:], keysHeldToRoles: ["key-1"]).followsSecurityRoles)
        #expect(RequestPrincipal.of(.apiToken, database: .public, privateUsers: [:]) == RequestPrincipal(userRecordName: nil, followsSecurityRoles: true))
        #expect(RequestPrincipal.of(.anyone, database: .public, privateUsers: [:]) == RequestPrincipal(userRecordName: "_defaultOwner", followsSecurityRoles: false))

        // A record the service saves for the database's owner (a key's, here): a user may not change it.
        let store = try TestEngine.sqlite.makeStore()
        let (_, adaToken) = try await WebAuthTests.signIn(store, email: "ada@example.org", givenName: "Ada")
        try await ServerHarness.withServer(store: store, configuration: WebAuthTests.configuration()) { server in
            let namespace = Namespace(environment: .development, database: .public)
            _ = try await server.service.modifyAnswer(Self.modify(Self.operation("create", "k1", title: "the team's")), in: namespace, principal: key, links: nil)
            let adaClient = Client(server, token: adaToken)
            let read = try await adaClient.post("records/lookup", ["records": [["recordName": "k1"]]], database: "public")
            #expect(read.records.first?["created"]?["userRecordName"]?.stringValue == key.userRecordName)
            let refused = try await adaClient.post("records/modify", Self.modify(Self.operation("forceUpdate", "k1", title: "Ada's now")), database: "public")
            #expect(refused.records.first?["serverErrorCode"] == "ACCESS_DENIED")
        }
    }
}
