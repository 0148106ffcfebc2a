import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import Testing

/// References in the development and private databases of `query serve` (issue #30): the store
/// keeps those databases' zones under a prefix (`development/Notes`), so a reference a client
/// sends is stored with its zone in the request's namespace and answered with the zone name the
/// client sent. `DELETE_SELF`, filters comparing references, and walks (`folder.name`) then find
/// the records of the request's own database, never another database's.
@Suite("References in development and private databases")
struct NamespacedReferenceTests {
    /// A database of the server: its path components and the prefix its zones are stored under.
    struct Database: CustomStringConvertible, Sendable {
        let environment: String
        let database: String
        let prefix: String
        var description: String { "\(environment)/\(database)" }
    }

    static var databases: [Database] {
        [
            Database(environment: "development", database: "public", prefix: "development/"),
            Database(environment: "production", database: "private", prefix: "private/_defaultOwner/"),
            Database(environment: "development", database: "private", prefix: "development/private/_defaultOwner/"),
        ]
    }

    static var cases: [(TestEngine, Database)] {
        let engines = [TestEngine.sqlite] + (TestEngine.allCases.contains(.postgres) ? [TestEngine.postgres] : [])
        return engines.flatMap { engine in databases.map { (engine, $0) } }
    }

    static func reference(_ name: String, zone: String, action: String) -> JSONValue {
        ["value": ["recordName": .string(name), "zoneID": ["zoneName": .string(zone)], "action": .string(action)], "type": "REFERENCE"]
    }

    static func create(_ type: String, _ name: String, _ fields: [String: JSONValue] = [:]) -> JSONValue {
        var all = fields
        all["name"] = ["value": .string(name.uppercased())]
        return ["operationType": "create", "record": ["recordName": .string(name), "recordType": .string(type), "fields": .object(all)]]
    }

    @Test("references are stored in the request's namespace, answered in the client's zone names, and followed there", arguments: cases)
    func referencesStayInTheirNamespace(engine: TestEngine, database: Database) async throws {
        let store = try engine.makeStore()
        try await ServerHarness.define(DeleteSelfReferenceTests.schema, in: store)
        let configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, predicateRules: .full)
        try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            func post(_ operation: String, _ body: JSONValue) async throws -> ServerHarness.Answer {
                try await server.post(operation, body, environment: database.environment, database: database.database)
            }
            let zone = try await post("zones/modify", ["operations": [["operationType": "create", "zone": ["zoneID": ["zoneName": "Notes"]]]]])
            #expect(zone.status == 200, "\(zone.body)")
            let created = try await post("records/modify", ["zoneID": ["zoneName": "Notes"], "operations": [
                Self.create("Folder", "f1"), Self.create("Folder", "f2"),
                Self.create("Item", "i1", ["folder": Self.reference("f1", zone: "Notes", action: "DELETE_SELF")]),
                Self.create("Item", "i2", ["folder": Self.reference("f1", zone: "Notes", action: "NONE")]),
                Self.create("Item", "i3", ["folder": Self.reference("f2", zone: "Notes", action: "DELETE_SELF")]),
            ]])
            #expect(created.status == 200 && created.records.allSatisfy { $0["serverErrorCode"] == nil }, "\(created.body)")
            // Answered in the client's zone name; stored in the namespace's.
            #expect(created.records[2]["fields"]?["folder"]?["value"]?["zoneID"]?["zoneName"] == "Notes")
            let storedZone = ZoneID(zoneName: database.prefix + "Notes")
            // The environment's store: development keeps a store of its own.
            let environmentStore = database.environment == "development" ? try await server.developmentStore() : store
            let stored = try await environmentStore.record(for: RecordID(recordName: "i1", zoneID: storedZone))
            #expect(stored?["folder"] == .reference(Reference(recordName: "f1", zoneName: database.prefix + "Notes")))

            // The same names in the public production database: a record there must never be reached.
            _ = try await server.post("zones/modify", ["operations": [["operationType": "create", "zone": ["zoneID": ["zoneName": "Notes"]]]]])
            let production = try await server.post("records/modify", ["zoneID": ["zoneName": "Notes"], "operations": [
                Self.create("Folder", "f1"),
                Self.create("Item", "p1", ["folder": Self.reference("f1", zone: "Notes", action: "DELETE_SELF")]),
            ]])
            #expect(production.records.allSatisfy { $0["serverErrorCode"] == nil }, "\(production.body)")

            // A filter comparing a reference, a walk, and a reference argument: each in this database.
            let filtered = try await post("records/query", ["zoneID": ["zoneName": "Notes"], "query": [
                "recordType": "Item", "sortBy": [["fieldName": "name"]],
                "filterBy": [["comparator": "EQUALS", "fieldName": "folder",
                              "fieldValue": ["value": ["recordName": "f1", "zoneID": ["zoneName": "Notes"]], "type": "REFERENCE"]]],
            ]])
            #expect(filtered.recordNames == ["i1", "i2"], "\(filtered.body)")
            #expect(filtered.records.first?["fields"]?["folder"]?["value"]?["zoneID"]?["zoneName"] == "Notes")
            let walked = try await post("records/query", ["zoneID": ["zoneName": "Notes"], "query": [
                "recordType": "Item", "sortBy": [["fieldName": "name"]], "predicate": "folder.name == %@", "arguments": ["F2"],
            ]])
            #expect(walked.recordNames == ["i3"], "\(walked.body)")
            let argument = try await post("records/query", ["zoneID": ["zoneName": "Notes"], "query": [
                "recordType": "Item", "sortBy": [["fieldName": "name"]], "predicate": "folder == %@", "arguments": [["$ref": ["f2", "Notes"]]],
            ]])
            #expect(argument.recordNames == ["i3"], "\(argument.body)")
            let lookup = try await post("records/lookup", ["zoneID": ["zoneName": "Notes"], "records": [["recordName": "i3"]]])
            #expect(lookup.records.first?["fields"]?["folder"]?["value"]?["zoneID"]?["zoneName"] == "Notes", "\(lookup.body)")

            // DELETE_SELF deletes in this database, and nowhere else.
            let deleted = try await post("records/modify", ["zoneID": ["zoneName": "Notes"], "operations": [
                ["operationType": "forceDelete", "record": ["recordName": "f1"]],
            ]])
            #expect(deleted.records.first?["deleted"] == true, "\(deleted.body)")
            let remaining = try await post("records/query", ["zoneID": ["zoneName": "Notes"], "query": ["recordType": "Item", "sortBy": [["fieldName": "name"]]]])
            #expect(remaining.recordNames == ["i2", "i3"])
            let untouched = try await server.post("records/query", ["zoneID": ["zoneName": "Notes"], "query": ["recordType": "Item"]])
            #expect(untouched.recordNames == ["p1"])

            // A zone name no client may send is refused where it stands.
            let reaching = try await post("records/modify", ["zoneID": ["zoneName": "Notes"], "operations": [
                Self.create("Item", "i9", ["folder": Self.reference("f1", zone: "development/Notes", action: "NONE")]),
            ]])
            #expect(reaching.errorCode == "BAD_REQUEST")
            #expect(reaching.body["reason"]?.stringValue?.hasPrefix("operations[0].record.fields.folder: zone name 'development/Notes' may not contain '/'") == true,
                    "\(reaching.body)")
        }
    }
}
