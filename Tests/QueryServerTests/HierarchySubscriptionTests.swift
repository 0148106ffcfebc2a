import EngineTestSupport
import Foundation
import QueryServer
import RecordStore
import Testing
import TestSupport

/// A query subscription on a Core Data model's parent entity follows what a `records/query` of
/// it returns: the records of the entities below it notify too, each with its own record type.
@Suite(.timeLimit(.minutes(10))) struct HierarchySubscriptionTests {
    /// Person (abstract: name, age) > Employee (salary) > Manager (level); Person > Contractor; Team.
    static let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("RecordStoreTests/Schema/Fixtures/Staff.xcdatamodel").path

    static var engines: [TestEngine] { [TestEngine.sqlite] + (TestEngine.allCases.contains(.postgres) ? [TestEngine.postgres] : []) }

    static func create(_ name: String, _ type: String, age: Int64) -> JSONValue {
        ["operationType": "create", "record": [
            "recordName": .string(name), "recordType": .string(type),
            "fields": ["name": ["value": .string(name)], "age": ["value": .integer(age)]],
        ]]
    }

    static func subscription(_ id: String, query: JSONValue) -> JSONValue {
        ["subscriptionID": .string(id), "subscriptionType": "query", "query": query, "firesOn": ["create", "update", "delete"]]
    }

    @Test("A subscription on an abstract parent notifies for every entity below it", arguments: engines)
    func parentSubscriptionsCoverSubentities(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await store.apply(try CoreDataModelReader.read(at: Self.model))
        try await ServerHarness.withServer(store: store) { server in
            let seniors = Self.subscription("seniors", query: [
                "recordType": "Person", "filterBy": [["fieldName": "age", "comparator": "GREATER_THAN_OR_EQUALS", "fieldValue": ["value": 40]]],
            ])
            // A concrete parent: its own records and its sub-entity's.
            let juniors = Self.subscription("juniors", query: [
                "recordType": "Employee", "filterBy": [["fieldName": "age", "comparator": "LESS_THAN", "fieldValue": ["value": 35]]],
            ])
            let created = try await server.post("subscriptions/modify", ["operations": [
                ["operationType": "create", "subscription": seniors], ["operationType": "create", "subscription": juniors],
            ]])
            #expect(created.status == 200)
            #expect(created.body["subscriptions"]?.arrayValue?.map { $0["serverErrorCode"] } == [nil, nil], "\(created.body)")
            let client = try EventStreamClient(port: server.port, path: ServerHarness.path("subscriptions/events"))
            try await client.waitForHead()

            // One commit: an old employee, an old contractor, a young manager, a young employee.
            let saved = try await server.post("records/modify", ["operations": [
                Self.create("erin", "Employee", age: 50), Self.create("carl", "Contractor", age: 45),
                Self.create("maya", "Manager", age: 30), Self.create("ed", "Employee", age: 20),
            ]])
            #expect(saved.records.map { $0["serverErrorCode"] } == [nil, nil, nil, nil])
            let events = try await client.next(4)
            let seen = events.map { event in
                [event.json?["subscriptionID"], event.json?["recordName"], event.json?["recordType"], event.json?["queryNotificationReason"]]
            }
            #expect(seen == [
                ["seniors", "erin", "Employee", "RECORD_CREATED"],
                ["seniors", "carl", "Contractor", "RECORD_CREATED"],
                ["juniors", "maya", "Manager", "RECORD_CREATED"],
                ["juniors", "ed", "Employee", "RECORD_CREATED"],
            ])

            // The contractor is deleted: it was a member, so "seniors" hears of it.
            _ = try await server.post("records/modify", ["operations": [["operationType": "forceDelete", "record": ["recordName": "carl"]]]])
            let deleted = try #require(try await client.next(1).first?.json)
            #expect(deleted["subscriptionID"] == "seniors")
            #expect(deleted["recordName"] == "carl")
            #expect(deleted["queryNotificationReason"] == "RECORD_DELETED")
            client.close()
        }
    }
}
