import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import QueryServer
import RecordStore
import TestSupport
import Testing

/// `schema/reset`, CloudKit Dashboard's "Reset Development Environment": with `"dryRun": true`
/// it names what would go (zones, records per type, the record types and fields production
/// lacks) and deletes nothing; without, development's zones and records go and its schema is
/// production's again, production untouched. Only the administrator resets, and only
/// development. On memory, SQLite and PostgreSQL (when configured, and always under CI).
@Suite struct DevelopmentResetRoutesTests {
    static let engines = SchemaAdministrationRoutesTests.engines

    static let citiesQuery: JSONValue = ["query": ["recordType": "City", "sortBy": [["systemFieldName": "recordName"]]]]

    /// Saves records in development's public database: two cities (one with a field production
    /// lacks), a note (a type production lacks), and a city in a zone of its own.
    static func fillDevelopment(_ server: ServerHarness) async throws {
        for (name, type, fields) in [("lyon", "City", ["name": ["value": "Lyon"], "mayor": ["value": "Grégory"]] as JSONValue),
                                     ("paris", "City", ["name": ["value": "Paris"]]), ("n1", "Note", ["title": ["value": "Hello"]])] {
            let saved = try await server.post("records/modify", EnvironmentSeparationTests.create(name, type, fields), environment: "development")
            #expect(saved.status == 200 && saved.records.first?["serverErrorCode"] == nil, "\(saved.body)")
        }
        let zone = try await server.post("zones/modify", ["operations": [["operationType": "create", "zone": ["zoneID": ["zoneName": "Archive"]]]]],
                                         environment: "development")
        #expect(zone.status == 200, "\(zone.body)")
        guard case .object(var body) = EnvironmentSeparationTests.create("nice", "City", ["name": ["value": "Nice"]]) else { return }
        body["zoneID"] = ["zoneName": "Archive"]
        let archived = try await server.post("records/modify", .object(body), environment: "development")
        #expect(archived.status == 200 && archived.records.first?["serverErrorCode"] == nil, "\(archived.body)")
    }

    static func reset(dryRun: Bool, zones: [String], records: [String: Int], types: [String], fields: [String]) -> JSONValue {
        DevelopmentReset(dryRun: dryRun, zones: zones, records: records, recordTypesNotInProduction: types, fieldsNotInProduction: fields).json
    }

    @Test(arguments: engines)
    func aDryRunNamesWhatGoesThenTheResetEmptiesDevelopmentAndKeepsProduction(engine: TestEngine) async throws {
        try await SchemaAdministrationRoutesTests.withServer(engine) { server in
            let tokyo = try await server.post("records/modify", EnvironmentSeparationTests.create("tokyo", "City", ["name": ["value": "Tokyo"]]))
            #expect(tokyo.status == 200 && tokyo.records.first?["serverErrorCode"] == nil, "\(tokyo.body)")
            try await Self.fillDevelopment(server)
            let zones = try await server.developmentStore().zones().map(\.zoneName).sorted()
            #expect(zones.contains("development/Archive") && zones.contains("development/_defaultZone"), "\(zones)")
            let expected = Self.reset(dryRun: true, zones: zones, records: ["City": 3, "Note": 1], types: ["Note"], fields: ["City.mayor"])

            // The plan alone deletes nothing.
            let planned = try await SchemaAdministrationRoutesTests.administer(server, "schema/reset", ["dryRun": true])
            #expect(planned.status == 200, "\(planned.body)")
            #expect(planned.body == expected)
            #expect(try await server.post("records/query", Self.citiesQuery, environment: "development").recordNames == ["lyon", "paris"])

            // The reset: the same account, and development is empty, its schema production's.
            let reset = try await SchemaAdministrationRoutesTests.administer(server, "schema/reset", [:])
            #expect(reset.status == 200, "\(reset.body)")
            #expect(reset.body == Self.reset(dryRun: false, zones: zones, records: ["City": 3, "Note": 1], types: ["Note"], fields: ["City.mayor"]))
            let development = try await server.developmentStore()
            #expect(try await development.schema(for: "Note") == nil)
            #expect(try await development.schema(for: "City")?.fields == server.store.schema(for: "City")?.fields)
            #expect(try await development.zones().map(\.zoneName).contains("development/Archive") == false)
            let emptied = try await server.post("records/query", Self.citiesQuery, environment: "development")
            #expect(emptied.status == 200, "\(emptied.body)")
            #expect(emptied.recordNames == [])
            let archive = try await server.post("records/query", ["query": ["recordType": "City"], "zoneID": ["zoneName": "Archive"]], environment: "development")
            #expect(archive.status == 404, "\(archive.body)")
            #expect(archive.errorCode == "ZONE_NOT_FOUND")
            // Production keeps its records and schema.
            #expect(try await server.post("records/query", Self.citiesQuery).recordNames == ["tokyo"])
            #expect(try await server.store.schema(for: "City")?.fields.map(\.name) == ["name", "population"])

            // Development works again, from production's schema, and a second plan finds nothing to delete.
            let again = try await server.post("records/modify", EnvironmentSeparationTests.create("lille", "City", ["name": ["value": "Lille"]]), environment: "development")
            #expect(again.status == 200 && again.records.first?["serverErrorCode"] == nil, "\(again.body)")
            #expect(try await server.post("records/query", Self.citiesQuery, environment: "development").recordNames == ["lille"])
            let after = try await SchemaAdministrationRoutesTests.administer(server, "schema/reset", ["dryRun": true])
            let zonesAfter = try await server.developmentStore().zones().map(\.zoneName).sorted()
            #expect(after.body == Self.reset(dryRun: true, zones: zonesAfter, records: ["City": 1], types: [], fields: []))
        }
    }

    /// A notification that never comes fails the test after its time limit, instead of hanging
    /// the run. The limit counts from the test's start, and a full parallel run can keep a test
    /// waiting for a thread for minutes (a one-minute limit failed a run that way): ten minutes,
    /// as the other subscription suites have.
    @Test(.timeLimit(.minutes(10)), arguments: engines)
    func afterAResetDevelopmentsSubscriptionsAreGoneAndNewOnesNotify(engine: TestEngine) async throws {
        try await SchemaAdministrationRoutesTests.withServer(engine) { server in
            let subscribe: JSONValue = ["operations": [["operationType": "create", "subscription": SubscriptionsTests.bigCities]]]
            let before = try await server.post("subscriptions/modify", subscribe, environment: "development")
            #expect(before.status == 200, "\(before.body)")
            let listening = try EventStreamClient(port: server.port, path: ServerHarness.path("subscriptions/events", environment: "development"))
            try await listening.waitForHead()
            let reset = try await SchemaAdministrationRoutesTests.administer(server, "schema/reset", [:])
            #expect(reset.status == 200, "\(reset.body)")
            // The old store's hub stopped: its listener's stream ended, with no event.
            await #expect(throws: (any Error).self) { try await listening.next(1) }
            listening.close()
            let listed = try await server.send("GET", ServerHarness.path("subscriptions/list", environment: "development"))
            #expect(listed.status == 200, "\(listed.body)")
            #expect(listed.body["subscriptions"] == [])

            // Subscribed again: the new store's commits notify.
            let again = try await server.post("subscriptions/modify", subscribe, environment: "development")
            #expect(again.status == 200, "\(again.body)")
            let client = try EventStreamClient(port: server.port, path: ServerHarness.path("subscriptions/events", environment: "development"))
            try await client.waitForHead()
            let saved = try await server.post("records/modify", ["operations": [SubscriptionsTests.city("Paris", 2_000_000)]], environment: "development")
            #expect(saved.status == 200 && saved.records.first?["serverErrorCode"] == nil, "\(saved.body)")
            let event = try #require(try await client.next(1).first)
            #expect(event.json?["recordName"] == "Paris")
            #expect(event.json?["queryNotificationReason"] == "RECORD_CREATED")
            client.close()
        }
    }

    @Test(arguments: engines)
    func onlyTheAdministratorResetsAndOnlyDevelopment(engine: TestEngine) async throws {
        try await SchemaAdministrationRoutesTests.withServer(engine, credentials: true) { server in
            let production = try await RoleRoutesTests.administer(server, "schema/reset", ["dryRun": true], environment: "production")
            #expect(production.status == 400, "\(production.body)")
            #expect(production.errorCode == "BAD_REQUEST")
            #expect(production.body["reason"] == "only the development environment is reset: production's records and schema stay")
            let path = ServerHarness.path("schema/reset", environment: "development")
            let byToken = try await server.send("POST", path + "?ckAPIToken=\(AuthenticationTests.token)", body: "{}")
            #expect(byToken.status == 403, "\(byToken.body)")
            #expect(byToken.errorCode == "ACCESS_DENIED")
            #expect(byToken.body["reason"] == .string(RoleRoutesTests.refusal + "; an API token or a signed-in user is never an administrator"))
            let anonymous = try await server.send("POST", path, body: "{}")
            #expect(anonymous.status == 421, "\(anonymous.body)")
            let wrong = try await RoleRoutesTests.administer(server, "schema/reset", [:], token: "not-the-token", environment: "development")
            #expect(wrong.status == 403)
            #expect(wrong.errorCode == "ACCESS_DENIED")
            // The administrator token: the plan, of an empty development.
            let allowed = try await RoleRoutesTests.administer(server, "schema/reset", ["dryRun": true], environment: "development")
            #expect(allowed.status == 200, "\(allowed.body)")
            #expect(allowed.body["records"] == [:])
            #expect(allowed.body["recordTypesNotInProduction"] == [])
        }
    }
}
