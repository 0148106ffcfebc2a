import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import RecordStorePostgres
import Testing
import TestSupport

/// Query subscriptions (`subscriptions/modify`, `list`, `lookup`) and their notifications over
/// Server-Sent Events (`subscriptions/events`, with `Last-Event-ID` resume), through a real socket.
@Suite(.timeLimit(.minutes(10))) struct SubscriptionsTests {
    static let bigCities: JSONValue = [
        "subscriptionID": "big-cities", "subscriptionType": "query",
        "query": ["recordType": "City", "filterBy": [["fieldName": "population", "comparator": "GREATER_THAN", "fieldValue": ["value": 1000]]]],
        "firesOn": ["create", "update", "delete"],
    ]

    /// The `City` type the tests save in the production environment (which creates no types).
    static let citySchema = "DEFINE SCHEMA RECORD TYPE City (population INT64 QUERYABLE SORTABLE);"

    static func city(_ name: String, _ population: Int64, operation: String = "create", tag: JSONValue? = nil) -> JSONValue {
        var record: [String: JSONValue] = ["recordName": .string(name), "recordType": "City", "fields": ["population": ["value": .integer(population)]]]
        if let tag { record["recordChangeTag"] = tag }
        return ["operationType": .string(operation), "record": .object(record)]
    }

    static var engines: [TestEngine] { [TestEngine.sqlite] + (TestEngine.allCases.contains(.postgres) ? [TestEngine.postgres] : []) }

    @Test func subscriptionsAreCreatedListedLookedUpUpdatedAndDeleted() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.define(Self.citySchema, in: store)
        try await ServerHarness.withServer(store: store) { server in
            let created = try await server.post("subscriptions/modify", ["operations": [
                ["operationType": "create", "subscription": Self.bigCities],
                ["operationType": "create", "subscription": ["subscriptionID": "z", "subscriptionType": "zone"]],
                ["operationType": "create", "subscription": ["subscriptionID": "bad", "query": ["recordType": "City"], "firesOn": ["explode"]]],
                ["operationType": "update", "subscription": ["subscriptionID": "missing", "query": ["recordType": "City"], "firesOn": ["create"]]],
            ]])
            #expect(created.status == 200)
            let answers = try #require(created.body["subscriptions"]?.arrayValue)
            #expect(answers[0] == [
                "subscriptionID": "big-cities", "subscriptionType": "query", "query": Self.bigCities["query"]!,
                "firesOn": ["create", "update", "delete"], "firesOnce": false, "zoneID": ["zoneName": "_defaultZone"],
            ])
            #expect(answers[1]["serverErrorCode"] == "BAD_REQUEST")
            #expect(answers[2]["serverErrorCode"] == "BAD_REQUEST")
            #expect(answers[3]["serverErrorCode"] == "NOT_FOUND")

            let listed = try await server.send("GET", ServerHarness.path("subscriptions/list"))
            #expect(listed.body["subscriptions"]?.arrayValue?.map { $0["subscriptionID"] } == ["big-cities"])
            let looked = try await server.post("subscriptions/lookup", ["subscriptions": [["subscriptionID": "big-cities"], ["subscriptionID": "nope"]]])
            #expect(looked.body["subscriptions"]?.arrayValue?[0]["firesOn"] == ["create", "update", "delete"])
            #expect(looked.body["subscriptions"]?.arrayValue?[1]["serverErrorCode"] == "NOT_FOUND")

            var changed = Self.bigCities
            if case .object(var members) = changed {
                members["firesOn"] = ["delete"]
                changed = .object(members)
            }
            let updated = try await server.post("subscriptions/modify", ["operations": [["operationType": "update", "subscription": changed]]])
            #expect(updated.body["subscriptions"]?.arrayValue?.first?["firesOn"] == ["delete"])
            // Another namespace has none.
            let development = try await server.send("GET", ServerHarness.path("subscriptions/list", environment: "development"))
            #expect(development.body["subscriptions"] == [])
            // The subscriptions' zone is nobody's zone.
            let zones = try await server.send("GET", ServerHarness.path("zones/list"))
            #expect(zones.body["zones"]?.arrayValue?.map { $0["zoneID"]?["zoneName"] } == ["_defaultZone"])

            let deleted = try await server.post("subscriptions/modify", ["operations": [
                ["operationType": "delete", "subscription": ["subscriptionID": "big-cities"]],
                ["operationType": "delete", "subscription": ["subscriptionID": "big-cities"]],
            ]])
            #expect(deleted.body["subscriptions"]?.arrayValue?[0] == ["subscriptionID": "big-cities", "deleted": true])
            #expect(deleted.body["subscriptions"]?.arrayValue?[1]["serverErrorCode"] == "NOT_FOUND")
            #expect(try await server.send("GET", ServerHarness.path("subscriptions/list")).body["subscriptions"] == [])
        }
    }

    @Test(arguments: engines)
    func notificationsArriveAsServerSentEventsAndResume(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await ServerHarness.define(Self.citySchema, in: store)
        try await ServerHarness.withServer(store: store) { server in
            _ = try await server.post("subscriptions/modify", ["operations": [["operationType": "create", "subscription": Self.bigCities]]])
            let events = ServerHarness.path("subscriptions/events")
            let client = try EventStreamClient(port: server.port, path: events)
            try await client.waitForHead()
            #expect(client.statusLine == "HTTP/1.1 200 OK")

            // A matching create fires; a small city does not.
            let created = try await server.post("records/modify", ["operations": [Self.city("Paris", 2_000_000), Self.city("Hamlet", 10)]])
            var event = try #require(try await client.next(1).first)
            #expect(event.name == "notification")
            let notification = try #require(event.json)
            #expect(notification["subscriptionID"] == "big-cities")
            #expect(notification["recordName"] == "Paris")
            #expect(notification["queryNotificationReason"] == "RECORD_CREATED")
            #expect(notification["notificationType"] == "query")
            #expect(notification["ck"]?["qry"]?["fo"] == 1)
            #expect(notification["containerIdentifier"] == "iCloud.com.example.cities")
            #expect(event.id == notification["notificationID"]?.stringValue)

            // The hamlet grows into the predicate (an update), Paris is deleted.
            let hamletTag = try #require(created.records[1]["recordChangeTag"])
            _ = try await server.post("records/modify", ["operations": [Self.city("Hamlet", 5000, operation: "update", tag: hamletTag)]])
            _ = try await server.post("records/modify", ["operations": [["operationType": "forceDelete", "record": ["recordName": "Paris"]]]])
            let next = try await client.next(2)
            #expect(next.map { $0.json?["recordName"] } == ["Hamlet", "Paris"])
            #expect(next.map { $0.json?["queryNotificationReason"] } == ["RECORD_UPDATED", "RECORD_DELETED"])
            let lastSeen = try #require(next[0].id)
            client.close()

            // Reconnecting after the first of those two: the second comes again, then what came meanwhile.
            _ = try await server.post("records/modify", ["operations": [Self.city("Lyon", 500_000)]])
            let resumed = try EventStreamClient(port: server.port, path: events, headers: ["Last-Event-ID": lastSeen])
            let replayed = try await resumed.next(2)
            #expect(replayed.map { $0.json?["recordName"] } == ["Paris", "Lyon"])
            event = replayed[1]
            #expect(event.json?["queryNotificationReason"] == "RECORD_CREATED")
            resumed.close()

            // An event the server does not keep: a reset first.
            let unknown = try EventStreamClient(port: server.port, path: events, headers: ["Last-Event-ID": "0-0-0"])
            #expect(try await unknown.next(1).first?.name == "reset")
            unknown.close()
        }
    }

    @Test func aFiresOnceSubscriptionIsDeletedAfterItsNotification() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await ServerHarness.define(Self.citySchema, in: store)
        try await ServerHarness.withServer(store: store) { server in
            var once = Self.bigCities
            if case .object(var members) = once {
                members["firesOnce"] = true
                members["subscriptionID"] = "once"
                once = .object(members)
            }
            _ = try await server.post("subscriptions/modify", ["operations": [["operationType": "create", "subscription": once]]])
            let client = try EventStreamClient(port: server.port, path: ServerHarness.path("subscriptions/events"))
            try await client.waitForHead()
            _ = try await server.post("records/modify", ["operations": [Self.city("A", 5000), Self.city("B", 6000)]])
            let events = try await client.next(1)
            #expect(events.first?.json?["recordName"] == "A")
            // Deleted after it fired (the hub deletes it just after sending).
            var remaining: JSONValue? = nil
            for _ in 0..<200 {
                remaining = try await server.send("GET", ServerHarness.path("subscriptions/list")).body["subscriptions"]
                if remaining == [] { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(remaining == [])
            client.close()
        }
    }

    @Test(.enabled(if: PostgresTestServer.url != nil || PostgresTestServer.isRequired, "QUERY_TEST_POSTGRES_URL is not set"))
    func aStreamResumesOnAnotherServerThatWasRunning() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let first = try await Store.open(url: url)
        let second = try await Store.open(url: url)
        let events = ServerHarness.path("subscriptions/events", environment: "development")
        try await ServerHarness.withServer(store: first) { one in
            _ = try await one.post("subscriptions/modify", ["operations": [["operationType": "create", "subscription": Self.bigCities]]], environment: "development")
            // The second server starts after the subscription exists: it keeps its notifications from its start.
            try await ServerHarness.withServer(store: second) { other in
                let client = try EventStreamClient(port: one.port, path: events)
                try await client.waitForHead()
                _ = try await one.post("records/modify", ["operations": [Self.city("Oslo", 700_000)]], environment: "development")
                let seen = try #require(try await client.next(1).first)
                #expect(seen.json?["recordName"] == "Oslo")
                client.close()
                _ = try await one.post("records/modify", ["operations": [Self.city("Bergen", 290_000)]], environment: "development")
                // The client comes back through the other server, which heard both commits.
                let resumed = try EventStreamClient(port: other.port, path: events, headers: ["Last-Event-ID": try #require(seen.id)])
                let missed = try #require(try await resumed.next(1).first)
                #expect(missed.name == "notification")
                #expect(missed.json?["recordName"] == "Bergen")
                resumed.close()
            }
        }
    }

    @Test(.enabled(if: PostgresTestServer.url != nil || PostgresTestServer.isRequired, "QUERY_TEST_POSTGRES_URL is not set"))
    func aWriteThroughAnotherServerNotifies() async throws {
        let url = try PostgresTestServer.freshStoreURL()
        let first = try await Store.open(url: url)
        let second = try await Store.open(url: url)
        try await ServerHarness.define(Self.citySchema, in: first)
        try await ServerHarness.withServer(store: first) { one in
            try await ServerHarness.withServer(store: second) { other in
                // Subscribed through one server, listened to on it, written through the other.
                _ = try await one.post("subscriptions/modify", ["operations": [["operationType": "create", "subscription": Self.bigCities]]])
                let client = try EventStreamClient(port: one.port, path: ServerHarness.path("subscriptions/events"))
                try await client.waitForHead()
                _ = try await other.post("records/modify", ["operations": [Self.city("Porto", 230_000)]])
                let event = try await client.next(1)
                #expect(event.first?.json?["recordName"] == "Porto")
                // The other server knows the subscription too.
                let listed = try await other.send("GET", ServerHarness.path("subscriptions/list"))
                #expect(listed.body["subscriptions"]?.arrayValue?.count == 1)
                client.close()
            }
        }
    }
}

extension EventStreamClient.Event {
    /// The event's data as JSON.
    var json: JSONValue? { try? JSONValue(parsing: Array(data.utf8)) }
}
