import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import QueryServer
import RecordStore
import Testing

/// The schema administration routes of the development environment: `schema/fields/add`,
/// `schema/indexes/remove` and `schema/deploy`, each with `"dryRun": true` (the plan, nothing
/// changed) and without (the change, answering the same plan); a field whose type would change
/// is refused; production's schema changes only by a deployment; only the administrator may
/// call them. On every engine the server tests run on (PostgreSQL when configured, and always
/// under CI).
@Suite struct SchemaAdministrationRoutesTests {
    static let engines = [TestEngine.memory, .sqlite] + (TestEngine.allCases.contains(.postgres) ? [TestEngine.postgres] : [])

    static let schemaText = """
        DEFINE SCHEMA
            RECORD TYPE City (
                name        STRING QUERYABLE,
                population  INT64 QUERYABLE SORTABLE
            );
        """

    /// A server over a fresh store of `engine`, ``schemaText`` applied to both environments:
    /// without credentials (anyone on loopback administers), or with RoleRoutesTests' (a key of
    /// full access, API tokens, the administrator token).
    static func withServer<T: Sendable>(_ engine: TestEngine, credentials: Bool = false, _ body: @Sendable (ServerHarness) async throws -> T) async throws -> T {
        var configuration = credentials ? try RoleRoutesTests.configuration(TestKey(), heldKey: TestKey()) : CloudKitServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.schema = try CloudKitSchemaDocument(parsing: schemaText)
        return try await ServerHarness.withServer(store: try engine.makeStore(), configuration: configuration, body)
    }

    /// Posts to a route of the development public database (of a server without credentials).
    static func administer(_ server: ServerHarness, _ operation: String, _ body: JSONValue) async throws -> ServerHarness.Answer {
        try await server.post(operation, body, environment: "development")
    }

    static func plan(_ environment: String, dryRun: Bool, _ changes: [JSONValue], refused: [JSONValue] = []) -> JSONValue {
        ["environment": .string(environment), "dryRun": .bool(dryRun), "changes": .array(changes), "refused": .array(refused)]
    }

    /// The body with `"dryRun": true`.
    static func dryRun(_ body: JSONValue) -> JSONValue {
        guard case .object(var members) = body else { return body }
        members["dryRun"] = true
        return .object(members)
    }

    static func field(_ store: Store, _ name: String) async throws -> FieldSchema? {
        try await store.schema(for: "City")?.field(named: name)
    }

    @Test(arguments: engines)
    func addingAFieldOrIndexesPlansThenChangesDevelopmentOnly(engine: TestEngine) async throws {
        try await Self.withServer(engine) { server in
            let development = try await server.developmentStore()
            let mayor: JSONValue = ["recordType": "City", "fieldName": "mayor", "type": "STRING", "indexes": ["queryable", "searchable"]]
            let addMayor = "+ field City.mayor STRING QUERYABLE SEARCHABLE"

            // The plan alone changes nothing.
            let planned = try await Self.administer(server, "schema/fields/add", Self.dryRun(mayor))
            #expect(planned.status == 200, "\(planned.body)")
            #expect(planned.body == Self.plan("development", dryRun: true, [.string(addMayor)]))
            #expect(try await Self.field(development, "mayor") == nil)

            // Applied: the same plan, and development's schema has the field; production's has not.
            let added = try await Self.administer(server, "schema/fields/add", mayor)
            #expect(added.status == 200, "\(added.body)")
            #expect(added.body == Self.plan("development", dryRun: false, [.string(addMayor)]))
            #expect(try await Self.field(development, "mayor") == FieldSchema(name: "mayor", type: .string, isQueryable: true, isSortable: false, isSearchable: true))
            #expect(try await Self.field(server.store, "mayor") == nil)
            // Again: nothing left to add.
            #expect(try await Self.administer(server, "schema/fields/add", mayor).body == Self.plan("development", dryRun: false, []))

            // An index type on a field the type has (its type may be left out).
            let sortable: JSONValue = ["recordType": "City", "fieldName": "name", "indexes": ["sortable", "queryable"], "dryRun": true]
            #expect(try await Self.administer(server, "schema/fields/add", sortable).body == Self.plan("development", dryRun: true, ["+ index City.name SORTABLE"]))
            #expect(try await Self.field(development, "name")?.isSortable == false)
            let indexed = try await Self.administer(server, "schema/fields/add", ["recordType": "City", "fieldName": "name", "indexes": ["sortable"]])
            #expect(indexed.body == Self.plan("development", dryRun: false, ["+ index City.name SORTABLE"]))
            #expect(try await Self.field(development, "name") == FieldSchema(name: "name", type: .string, isQueryable: true, isSortable: true))
            #expect(try await Self.field(server.store, "name") == FieldSchema(name: "name", type: .string, isQueryable: true, isSortable: false))
            // Development sorts by it, and finds by the new field.
            let saved = try await server.post("records/modify", EnvironmentSeparationTests.create("lyon", "City", ["name": ["value": "Lyon"], "mayor": ["value": "Grégory"]]),
                                              environment: "development")
            #expect(saved.status == 200 && saved.records.first?["serverErrorCode"] == nil, "\(saved.body)")
            let found = try await server.post("records/query", ["query": ["recordType": "City", "filterBy": [["fieldName": "mayor", "comparator": "EQUALS",
                                              "fieldValue": ["value": "Grégory"]]], "sortBy": [["fieldName": "name"]]]], environment: "development")
            #expect(found.recordNames == ["lyon"], "\(found.body)")

            // A field whose type would change is refused: planned, then not made.
            let double: JSONValue = ["recordType": "City", "fieldName": "population", "type": "DOUBLE", "indexes": ["queryable"]]
            let refusal = "City.population is INT64, and the deployed schema has DOUBLE: a field's type cannot change"
            #expect(try await Self.administer(server, "schema/fields/add", Self.dryRun(double)).body == Self.plan("development", dryRun: true, [], refused: [.string(refusal)]))
            let refused = try await Self.administer(server, "schema/fields/add", double)
            #expect(refused.status == 400)
            #expect(refused.errorCode == "BAD_REQUEST")
            #expect(refused.body["reason"] == .string("nothing changed: " + refusal))
            #expect(try await Self.field(development, "population")?.type == .int64)
        }
    }

    @Test(arguments: engines)
    func removingIndexesPlansThenNarrowsTheDevelopmentField(engine: TestEngine) async throws {
        try await Self.withServer(engine) { server in
            let development = try await server.developmentStore()
            let saved = try await server.post("records/modify", EnvironmentSeparationTests.create("paris", "City", ["name": ["value": "Paris"], "population": ["value": 2_138_551]]),
                                              environment: "development")
            #expect(saved.status == 200 && saved.records.first?["serverErrorCode"] == nil, "\(saved.body)")
            let remove: JSONValue = ["recordType": "City", "fieldName": "population", "indexes": ["sortable", "searchable"], "dryRun": true]
            let planned = try await Self.administer(server, "schema/indexes/remove", remove)
            #expect(planned.status == 200, "\(planned.body)")
            #expect(planned.body == Self.plan("development", dryRun: true, ["- index City.population SORTABLE"]))
            #expect(try await Self.field(development, "population")?.isSortable == true)

            let removed = try await Self.administer(server, "schema/indexes/remove", ["recordType": "City", "fieldName": "population", "indexes": ["sortable", "queryable"]])
            #expect(removed.body == Self.plan("development", dryRun: false, ["- index City.population QUERYABLE SORTABLE"]))
            #expect(try await Self.field(development, "population") == FieldSchema(name: "population", type: .int64, isQueryable: false, isSortable: false))
            #expect(try await Self.field(server.store, "population") == FieldSchema(name: "population", type: .int64, isQueryable: true, isSortable: true))
            // Again: nothing left to remove.
            #expect(try await Self.administer(server, "schema/indexes/remove", ["recordType": "City", "fieldName": "population", "indexes": ["sortable"]]).body
                    == Self.plan("development", dryRun: false, []))
            // Development still answers a query that needed the index, by a scan.
            let found = try await server.post("records/query", ["query": ["recordType": "City", "filterBy": [["fieldName": "population", "comparator": "GREATER_THAN",
                                              "fieldValue": ["value": 1000]]], "sortBy": [["fieldName": "population"]]]], environment: "development")
            #expect(found.recordNames == ["paris"], "\(found.body)")

            // An unknown field or type.
            let noField = try await Self.administer(server, "schema/indexes/remove", ["recordType": "City", "fieldName": "mayor", "indexes": ["sortable"]])
            #expect(noField.status == 400)
            #expect(noField.body["reason"] == "City has no field 'mayor' in the development schema")
            let noType = try await Self.administer(server, "schema/fields/add", ["recordType": "Town", "fieldName": "name", "type": "STRING"])
            #expect(noType.status == 400)
            #expect(noType.body["reason"] == "the development schema has no record type 'Town'")
            let badType = try await Self.administer(server, "schema/fields/add", ["recordType": "City", "fieldName": "mayor", "type": "TEXT"])
            #expect(badType.body["reason"] == "'TEXT' is not a field type: one of STRING, INT64, DOUBLE, TIMESTAMP, BYTES, LOCATION, REFERENCE, STRING_LIST, INT64_LIST, DOUBLE_LIST, TIMESTAMP_LIST, BYTES_LIST, LOCATION_LIST, REFERENCE_LIST")
            let noTypeGiven = try await Self.administer(server, "schema/fields/add", ["recordType": "City", "fieldName": "mayor"])
            #expect(noTypeGiven.body["reason"] == "type is missing: City has no field 'mayor' yet, so give its type (one of STRING, INT64, DOUBLE, TIMESTAMP, BYTES, LOCATION, REFERENCE, STRING_LIST, INT64_LIST, DOUBLE_LIST, TIMESTAMP_LIST, BYTES_LIST, LOCATION_LIST, REFERENCE_LIST)")
        }
    }

    @Test(arguments: engines)
    func deployingShowsWhatProductionGainsThenDeploysItOrRefusesATypeChange(engine: TestEngine) async throws {
        try await Self.withServer(engine) { server in
            // Development gains a field (by the route) and a record type (by a save).
            _ = try await Self.administer(server, "schema/fields/add", ["recordType": "City", "fieldName": "mayor", "type": "STRING", "indexes": ["queryable"]])
            let note = try await server.post("records/modify", EnvironmentSeparationTests.create("n1", "Note", ["title": ["value": "Hello"]]), environment: "development")
            #expect(note.status == 200 && note.records.first?["serverErrorCode"] == nil, "\(note.body)")
            let development = try await server.developmentStore()
            let noteType = try #require(try await development.schema(for: "Note"))
            let gains: [JSONValue] = ["+ field City.mayor STRING QUERYABLE", .string(SchemaDeployment.Gain.recordType(noteType).description)]

            let planned = try await Self.administer(server, "schema/deploy", ["dryRun": true])
            #expect(planned.status == 200, "\(planned.body)")
            #expect(planned.body == Self.plan("production", dryRun: true, gains))
            #expect(try await server.store.schema(for: "Note") == nil)

            let deployed = try await Self.administer(server, "schema/deploy", [:])
            #expect(deployed.status == 200, "\(deployed.body)")
            #expect(deployed.body == Self.plan("production", dryRun: false, gains))
            #expect(try await Self.field(server.store, "mayor") == FieldSchema(name: "mayor", type: .string, isQueryable: true, isSortable: false))
            #expect(try await server.store.schema(for: "Note")?.fields == noteType.fields)
            // Production takes the new field's values now.
            let saved = try await server.post("records/modify", EnvironmentSeparationTests.create("paris", "City", ["name": ["value": "Paris"], "mayor": ["value": "Anne"]]))
            #expect(saved.status == 200 && saved.records.first?["serverErrorCode"] == nil, "\(saved.body)")
            #expect(try await Self.administer(server, "schema/deploy", ["dryRun": true]).body == Self.plan("production", dryRun: true, []))

            // Development widens population to DOUBLE: production refuses it, and nothing is deployed.
            let widened = try await server.post("records/modify", EnvironmentSeparationTests.create("lyon", "City", ["population": ["value": 1.5], "rank": ["value": 2]]),
                                                environment: "development")
            #expect(widened.status == 200 && widened.records.first?["serverErrorCode"] == nil, "\(widened.body)")
            let rank = try #require(try await Self.field(development, "rank"))
            let refusal = "City.population is INT64, and the deployed schema has DOUBLE: a field's type cannot change"
            let refusedPlan = try await Self.administer(server, "schema/deploy", ["dryRun": true])
            #expect(refusedPlan.body == Self.plan("production", dryRun: true, [.string(SchemaDeployment.Gain.field(recordType: "City", rank).description)], refused: [.string(refusal)]))
            let refused = try await Self.administer(server, "schema/deploy", ["dryRun": false])
            #expect(refused.status == 400)
            #expect(refused.errorCode == "BAD_REQUEST")
            #expect(refused.body["reason"] == .string("nothing changed: " + refusal))
            #expect(try await Self.field(server.store, "rank") == nil)
            #expect(try await Self.field(server.store, "population")?.type == .int64)
        }
    }

    @Test(arguments: engines)
    func onlyTheAdministratorChangesTheSchemaAndOnlyInDevelopment(engine: TestEngine) async throws {
        try await Self.withServer(engine, credentials: true) { server in
            let bodies: [(String, JSONValue)] = [
                ("schema/fields/add", ["recordType": "City", "fieldName": "mayor", "type": "STRING"]),
                ("schema/indexes/remove", ["recordType": "City", "fieldName": "name", "indexes": ["queryable"]]),
                ("schema/deploy", ["dryRun": true]),
            ]
            for (operation, body) in bodies {
                // Production's schema changes only by a deployment.
                let production = try await RoleRoutesTests.administer(server, operation, body, environment: "production")
                #expect(production.status == 400, "\(operation): \(production.body)")
                #expect(production.errorCode == "BAD_REQUEST")
                #expect(production.body["reason"] == "the schema is administered in the development environment: production's changes only by deploying development's (schema/deploy)")
                // An API token, or no credential at all.
                let path = ServerHarness.path(operation, environment: "development")
                let text = String(decoding: body.jsonBytes(), as: UTF8.self)
                let byToken = try await server.send("POST", path + "?ckAPIToken=\(AuthenticationTests.token)", body: text)
                #expect(byToken.status == 403, "\(operation): \(byToken.body)")
                #expect(byToken.errorCode == "ACCESS_DENIED")
                #expect(byToken.body["reason"] == .string(RoleRoutesTests.refusal + "; an API token or a signed-in user is never an administrator"))
                let anonymous = try await server.send("POST", path, body: text)
                #expect(anonymous.status == 421, "\(operation): \(anonymous.body)")
                // Not the shared database's.
                let shared = try await RoleRoutesTests.administer(server, operation, body, environment: "development", database: "shared")
                #expect(shared.status == 400, "\(operation): \(shared.body)")
            }
            // The administrator token, in development: the plan.
            let allowed = try await RoleRoutesTests.administer(server, "schema/fields/add", ["recordType": "City", "fieldName": "mayor", "type": "STRING", "dryRun": true],
                                                              environment: "development")
            #expect(allowed.body == Self.plan("development", dryRun: true, ["+ field City.mayor STRING"]))
            #expect(try await Self.field(server.developmentStore(), "mayor") == nil)
            #expect(try await Self.field(server.developmentStore(), "name")?.isQueryable == true)
            #expect(try await server.store.schema(for: "City")?.fields.map(\.name) == ["name", "population"])
        }
    }
}
