import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import Testing
import TestSupport

/// Zone and database subscriptions (`subscriptionType` `zone` and `database`): where each is
/// taken, and the notifications they send over `subscriptions/events`, in a private database and
/// in a shared one, where they follow what is shared with the user.
@Suite(.timeLimit(.minutes(10))) struct ChangeSubscriptionsTests {
    typealias Client = WebAuthTests.SignedInClient
    typealias Sharing = SharingRoutesTests

    static func subscription(_ identifier: String, type: String, zone: String? = nil) -> JSONValue {
        var subscription: [String: JSONValue] = ["subscriptionID": .string(identifier), "subscriptionType": .string(type)]
        if let zone { subscription["zoneID"] = ["zoneName": .string(zone)] }
        if type == "query" {
            subscription["query"] = ["recordType": "Trip"]
            subscription["firesOn"] = ["create"]
        }
        return .object(subscription)
    }

    static func create(_ subscriptions: [JSONValue]) -> JSONValue {
        ["operations": .array(subscriptions.map { ["operationType": "create", "subscription": $0] })]
    }

    /// The path of a database's event stream for a signed-in user's token.
    static func eventsPath(database: String, token: String) -> String {
        ServerHarness.path("subscriptions/events", environment: "development", database: database)
            + "?ckAPIToken=\(WebAuthTests.apiToken)&ckWebAuthToken=\(token)"
    }

    /// Reads events until one of `subscriptionID` arrives; their subscription IDs in order.
    static func subscriptionIDs(_ client: EventStreamClient, until subscriptionID: String) async throws -> [String] {
        var identifiers: [String] = []
        while identifiers.last != subscriptionID {
            let event = try #require(try await client.next(1).first)
            identifiers.append(event.json?["subscriptionID"]?.stringValue ?? event.name)
        }
        return identifiers
    }

    @Test("In a private database: a zone subscription fires for its zone, a database subscription for every zone", arguments: TestEngine.allCases)
    func privateDatabase(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        let (ada, adaToken) = try await WebAuthTests.signIn(store, email: "ada@example.org", givenName: "Ada")
        let streamToken = try await WebAuthSessions(store: store).open(userRecordName: ada.userRecordName, container: WebAuthTests.container)
        try await ServerHarness.withServer(store: store, configuration: WebAuthTests.configuration()) { server in
            let adaClient = Client(server, token: adaToken)
            _ = try await adaClient.post("zones/modify", ["operations": [
                ["operationType": "create", "zone": ["zoneID": ["zoneName": "Trips"]]], ["operationType": "create", "zone": ["zoneID": ["zoneName": "Notes"]]],
            ]], database: "private")
            let created = try await adaClient.post("subscriptions/modify", Self.create([
                Self.subscription("all", type: "database"), Self.subscription("trips", type: "zone", zone: "Trips"),
                Self.subscription("nameless", type: "zone"),
            ]), database: "private")
            #expect(created.body["subscriptions"] == [
                ["subscriptionID": "all", "subscriptionType": "database"],
                ["subscriptionID": "trips", "subscriptionType": "zone", "zoneID": ["zoneName": "Trips"]],
                ["subscriptionID": "nameless", "serverErrorCode": "BAD_REQUEST", "reason": "a zone subscription names its zone in zoneID"],
            ])
            let listed = try await adaClient.post("subscriptions/list", [:], database: "private")
            #expect(listed.body["subscriptions"]?.arrayValue?.map { $0["subscriptionID"]?.stringValue ?? "" } == ["all", "trips"])
            // The public database takes query subscriptions only.
            let refused = try await adaClient.post("subscriptions/modify", Self.create([Self.subscription("public-all", type: "database")]), database: "public")
            #expect(refused.body["subscriptions"]?.arrayValue?.first?["serverErrorCode"] == "BAD_REQUEST")

            let client = try EventStreamClient(port: server.port, path: Self.eventsPath(database: "private", token: streamToken))
            try await client.waitForHead()
            #expect(client.statusLine == "HTTP/1.1 200 OK")
            _ = try await adaClient.post("records/modify", Sharing.create([Sharing.record("n1", "Note", title: "One")], zone: "Notes"), database: "private")
            _ = try await adaClient.post("records/modify", Sharing.create([Sharing.record("rome", "Trip", title: "Rome")], zone: "Trips"), database: "private")
            let events = try await client.next(3)
            #expect(events.map { $0.json?["subscriptionID"]?.stringValue ?? "" } == ["all", "all", "trips"])
            #expect(events.map { $0.json?["notificationType"]?.stringValue ?? "" } == ["database", "database", "zone"])
            let zone = try #require(events.last?.json)
            #expect(zone["zoneID"] == ["zoneName": "Trips"])
            #expect(zone["databaseScope"] == "PRIVATE")
            #expect(zone["ck"]?["fet"] == ["sid": "trips", "zid": "Trips", "dbs": 2])
            #expect(events[0].json?["ck"]?["met"] == ["sid": "all", "dbs": 2])
            // Each commit fires a subscription once, both under the commit's sequence.
            #expect(events[1].id?.split(separator: "-").first == events[2].id?.split(separator: "-").first)
            client.close()
        }
    }

    @Test("In a shared database: database subscriptions only, firing for what is shared with the user and when it stops being", arguments: TestEngine.allCases)
    func sharedDatabase(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        let (_, adaToken) = try await WebAuthTests.signIn(store, email: "ada@example.org", givenName: "Ada")
        let (bob, bobToken) = try await WebAuthTests.signIn(store, email: "bob@example.org", givenName: "Bob")
        let streamToken = try await WebAuthSessions(store: store).open(userRecordName: bob.userRecordName, container: WebAuthTests.container)
        try await ServerHarness.withServer(store: store, configuration: WebAuthTests.configuration()) { server in
            let adaClient = Client(server, token: adaToken)
            let bobClient = Client(server, token: bobToken)
            _ = try await adaClient.post("zones/modify", ["operations": [["operationType": "create", "zone": ["zoneID": ["zoneName": "Trips"]]]]], database: "private")
            _ = try await adaClient.post("records/modify", Sharing.create([
                Sharing.record("paris", "Trip", title: "Paris"), Sharing.record("diary", "Trip", title: "Private diary"),
            ], zone: "Trips"), database: "private")
            let shared = try await adaClient.post("records/modify", ["zoneID": ["zoneName": "Trips"], "operations": [
                Sharing.share("paris-share", root: "paris", participants: [Sharing.participant(user: bob.userRecordName, permission: "READ_ONLY")]),
            ]], database: "private")
            let guid = try #require(shared.records.first?["shortGUID"]?.stringValue)
            _ = try await bobClient.post("records/accept", Sharing.guids(guid), database: "public")

            // Query and zone subscriptions are refused; a database subscription is taken.
            let created = try await bobClient.post("subscriptions/modify", Self.create([
                Self.subscription("trips", type: "query"), Self.subscription("zone", type: "zone", zone: "Trips"), Self.subscription("s1", type: "database"),
            ]), database: "shared")
            let answers = try #require(created.body["subscriptions"]?.arrayValue)
            #expect(answers.map { $0["serverErrorCode"]?.stringValue ?? "" } == ["BAD_REQUEST", "BAD_REQUEST", ""])
            #expect(answers[0]["reason"]?.stringValue?.hasPrefix("the shared database takes database subscriptions only") == true)
            #expect(answers[2] == ["subscriptionID": "s1", "subscriptionType": "database"])
            #expect(try await bobClient.post("subscriptions/list", [:], database: "shared").body["subscriptions"]?.arrayValue?.count == 1)
            #expect(try await bobClient.post("subscriptions/list", [:], database: "private").body["subscriptions"] == [])

            let client = try EventStreamClient(port: server.port, path: Self.eventsPath(database: "shared", token: streamToken))
            try await client.waitForHead()
            // A change outside the shared hierarchy fires nothing; a stop under the root does.
            // (A second subscription, made between, tells the commits apart.)
            _ = try await adaClient.post("records/modify", ["zoneID": ["zoneName": "Trips"], "operations": [
                ["operationType": "forceUpdate", "record": ["recordName": "diary", "recordType": "Trip", "fields": ["title": ["value": "Still private"]]]],
            ]], database: "private")
            _ = try await adaClient.post("records/modify", Sharing.create([Sharing.record("louvre", "Stop", title: "Louvre", parent: "paris")], zone: "Trips"),
                                         database: "private")
            _ = try await bobClient.post("subscriptions/modify", Self.create([Self.subscription("s2", type: "database")]), database: "shared")
            _ = try await adaClient.post("records/modify", Sharing.create([Sharing.record("orsay", "Stop", title: "Orsay", parent: "paris")], zone: "Trips"),
                                         database: "private")
            #expect(try await Self.subscriptionIDs(client, until: "s2") == ["s1", "s1", "s2"])

            // Ada takes Bob off the share: his database changed (the zone is gone from it).
            let current = try #require(try await adaClient.post("records/lookup", ["zoneID": ["zoneName": "Trips"], "records": [["recordName": "paris-share"]]],
                                                                database: "private").records.first)
            _ = try await adaClient.post("records/modify", ["zoneID": ["zoneName": "Trips"], "operations": [
                Sharing.share("paris-share", root: "paris", participants: [], operation: "update", changeTag: current["recordChangeTag"]?.stringValue),
            ]], database: "private")
            let removal = try await client.next(2)
            #expect(removal.map { $0.json?["subscriptionID"]?.stringValue ?? "" } == ["s1", "s2"])
            #expect(removal.first?.json?["databaseScope"] == "SHARED")
            #expect(removal.first?.json?["ck"]?["met"] == ["sid": "s1", "dbs": 3])
            #expect(removal.first?.json?["zoneID"] == nil)
            let gone = try await bobClient.post("changes/database", [:], database: "shared")
            #expect(gone.body["zones"] == [])
            client.close()
        }
    }
}
