import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import Testing

/// The development and production environments kept apart: development's saves grow a schema of
/// its own (a store beside the served one) and never production's; schema growth is bounded; a
/// record type saved only in one key's private database is not in the public schema; production
/// gains development's schema only by a deployment.
@Suite struct EnvironmentSeparationTests {
    /// The engines these tests run on: SQLite, and PostgreSQL when a server is configured.
    static let engines: [TestEngine] = [.sqlite] + (TestEngine.allCases.contains(.postgres) ? [.postgres] : [])

    static let schemaText = """
        DEFINE SCHEMA
            RECORD TYPE City (
                name        STRING QUERYABLE SORTABLE,
                population  INT64 QUERYABLE SORTABLE
            );
        """

    /// A server over a fresh store of `engine` with ``schemaText`` applied at start.
    static func withServer<T: Sendable>(_ engine: TestEngine, schema: Bool = true, _ body: @Sendable (ServerHarness) async throws -> T) async throws -> T {
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0)
        if schema { configuration.schema = try CloudKitSchemaDocument(parsing: schemaText) }
        return try await ServerHarness.withServer(store: try engine.makeStore(), configuration: configuration, body)
    }

    static func create(_ name: String, _ recordType: String, _ fields: JSONValue) -> JSONValue {
        ["operations": [["operationType": "create", "record": ["recordName": .string(name), "recordType": .string(recordType), "fields": fields]]]]
    }

    /// `count` fields named `prefix0`, `prefix1`, ... with integer values.
    static func fields(_ prefix: String, count: Int) -> JSONValue {
        .object(Dictionary(uniqueKeysWithValues: (0..<count).map { ("\(prefix)\($0)", JSONValue.object(["value": .integer(Int64($0))])) }))
    }

    @Test(arguments: engines)
    func aDevelopmentSaveOfADoubleLeavesProductionsIntegerFieldAndValues(engine: TestEngine) async throws {
        try await Self.withServer(engine) { server in
            let paris = try await server.post("records/modify", Self.create("paris", "City", ["name": ["value": "Paris"], "population": ["value": 2_138_551]]))
            #expect(paris.records.first?["serverErrorCode"] == nil, "\(paris.body)")
            // Development widens its own population to DOUBLE.
            let lyon = try await server.post("records/modify", Self.create("lyon", "City", ["name": ["value": "Lyon"], "population": ["value": 1.5]]),
                                             environment: "development")
            #expect(lyon.records.first?["fields"]?["population"] == ["value": 1.5, "type": "DOUBLE"], "\(lyon.body)")
            let development = try await server.developmentStore()
            #expect(try await development.schema(for: "City")?.field(named: "population")?.type == .double)

            // Production's field, schema answer and values are as they were.
            #expect(try await server.store.schema(for: "City")?.field(named: "population")?.type == .int64)
            let schema = try await server.send("GET", ServerHarness.path("schema"))
            let population = schema.body["recordTypes"]?.arrayValue?.first?["fields"]?.arrayValue?.first { $0["fieldName"] == "population" }
            #expect(population?["type"] == "INT64")
            let lookup = try await server.post("records/lookup", ["records": [["recordName": "paris"]]])
            #expect(lookup.records.first?["fields"]?["population"] == ["value": 2_138_551, "type": "INT64"])
            #expect(try await server.store.record(for: RecordID(recordName: "paris"))?["population"] == .int(2_138_551))
            // Production still refuses a fractional population, and takes an integer one.
            let fractional = try await server.post("records/modify", Self.create("nice", "City", ["population": ["value": 2.5]]))
            #expect(fractional.records.first?["serverErrorCode"] == "BAD_REQUEST")
            #expect(fractional.records.first?["reason"] == "Field 'population' of record type 'City' has type int64, but a value of type double arrived")
            let whole = try await server.post("records/modify", Self.create("nice", "City", ["population": ["value": 342_669]]))
            #expect(whole.records.first?["fields"]?["population"] == ["value": 342_669, "type": "INT64"])
            // Development's records are not production's, nor the other way round.
            #expect(try await server.store.record(for: RecordID(recordName: "lyon")) == nil)
            #expect(try await development.record(for: RecordID(recordName: "paris", zoneID: ZoneID(zoneName: "development/_defaultZone"))) == nil)
        }
    }

    @Test(arguments: engines)
    func aRequestGrowingTheSchemaPastABoundIsRefusedWithNothingChanged(engine: TestEngine) async throws {
        try await Self.withServer(engine) { server in
            let development = try await server.developmentStore()
            let schemaBefore = try await development.schema()
            // 101 new fields in one request: more schema changes than a request may make.
            let flood = try await server.post("records/modify", Self.create("wide-1", "City", Self.fields("f", count: 101)), environment: "development")
            #expect(flood.status == 400)
            #expect(flood.errorCode == "BAD_REQUEST")
            #expect(flood.body["reason"] == "The save would make 101 schema changes (new record types, new fields, field types changed); a save may make at most 100 (changesPerSave)")
            // Also when the changes are spread over the records of a non-atomic request.
            let spread = try await server.post("records/modify", ["atomic": false, "operations": [
                ["operationType": "create", "record": ["recordName": "wide-2", "recordType": "City", "fields": Self.fields("a", count: 60)]],
                ["operationType": "create", "record": ["recordName": "wide-3", "recordType": "City", "fields": Self.fields("b", count: 60)]],
            ]], environment: "development")
            #expect(spread.status == 400)
            #expect(spread.body["reason"] == "The save would make 120 schema changes (new record types, new fields, field types changed); a save may make at most 100 (changesPerSave)")
            #expect(try await development.schema() == schemaBefore)
            #expect(try await development.record(for: RecordID(recordName: "wide-1", zoneID: ZoneID(zoneName: "development/_defaultZone"))) == nil)

            // A record type grows to 200 fields, not one more.
            for (round, count) in [99, 99].enumerated() {
                let grown = try await server.post("records/modify", Self.create("grown-\(round)", "City", Self.fields("g\(round)x", count: count)),
                                                  environment: "development")
                #expect(grown.records.first?["serverErrorCode"] == nil, "\(grown.body)")
            }
            #expect(try await development.schema(for: "City")?.fields.count == 200)
            let past = try await server.post("records/modify", Self.create("past", "City", Self.fields("h", count: 1)), environment: "development")
            #expect(past.status == 400)
            #expect(past.body["reason"] == "Record type 'City' would have 201 fields; a record type may have at most 200 (fieldsPerRecordType)")
            #expect(try await development.schema(for: "City")?.fields.count == 200)
            #expect(try await development.record(for: RecordID(recordName: "past", zoneID: ZoneID(zoneName: "development/_defaultZone"))) == nil)
            // Production never grew.
            #expect(try await server.store.schema(for: "City")?.fields.map(\.name) == ["name", "population"])
        }
    }

    @Test(arguments: engines)
    func aRecordTypeSavedOnlyInAPrivateDatabaseIsNotInThePublicSchema(engine: TestEngine) async throws {
        try await Self.withServer(engine) { server in
            let diary = try await server.post("records/modify", Self.create("d1", "Diary", ["entry": ["value": "Dear diary"]]),
                                              environment: "development", database: "private")
            #expect(diary.records.first?["serverErrorCode"] == nil, "\(diary.body)")
            let city = try await server.post("records/modify", Self.create("paris", "Note", ["title": ["value": "Paris"]]), environment: "development")
            #expect(city.records.first?["serverErrorCode"] == nil, "\(city.body)")

            func listed(_ environment: String, _ database: String) async throws -> [String] {
                let answer = try await server.send("GET", ServerHarness.path("schema", environment: environment, database: database))
                return answer.body["recordTypes"]?.arrayValue?.compactMap { $0["recordType"]?.stringValue } ?? []
            }
            // City is declared by the served schema; Note has public records; Diary has private ones only.
            #expect(try await listed("development", "public") == ["City", "Note"])
            #expect(try await listed("development", "private") == ["City", "Diary", "Note"])
            #expect(try await listed("production", "public") == ["City"])
            let ckdb = try await server.sendForText("GET", ServerHarness.path("schema", environment: "development") + "?format=ckdb")
            #expect(!ckdb.text.contains("Diary"))
            #expect(ckdb.text.contains("RECORD TYPE Note"))

            // Once a public record of the type is saved, the public schema lists it.
            _ = try await server.post("records/modify", Self.create("d2", "Diary", ["entry": ["value": "Public"]]), environment: "development")
            #expect(try await listed("development", "public") == ["City", "Diary", "Note"])
        }
    }

    @Test(arguments: engines)
    func productionGainsDevelopmentsSchemaOnlyByADeployment(engine: TestEngine) async throws {
        try await Self.withServer(engine) { server in
            let mayor = Self.create("lyon", "City", ["name": ["value": "Lyon"], "mayor": ["value": "G. Doucet"]])
            _ = try await server.post("records/modify", mayor, environment: "development")
            let refused = try await server.post("records/modify", mayor)
            #expect(refused.records.first?["reason"] == "Cannot add field 'mayor' to record type 'City' in production mode")

            let development = try await server.developmentStore()
            let deployed = try await server.store.deploySchema(from: development)
            #expect(deployed.gains.map(\.description) == ["+ field City.mayor STRING QUERYABLE SEARCHABLE"])
            #expect(deployed.conflicts.isEmpty)
            let saved = try await server.post("records/modify", mayor)
            #expect(saved.records.first?["fields"]?["mayor"] == ["value": "G. Doucet", "type": "STRING"], "\(saved.body)")

            // A field whose type development changed cannot be deployed: nothing is.
            _ = try await server.post("records/modify", Self.create("nice", "City", ["population": ["value": 1.5], "motto": ["value": "Nissa la bella"]]),
                                      environment: "development")
            let before = try await server.store.schema()
            await #expect(throws: RecordStoreError.typeMismatch(field: "population", recordType: "City", schemaType: .int64,
                                                                 valueType: "double (the deployed schema's)")) {
                try await server.store.deploySchema(from: development)
            }
            #expect(try await server.store.schema() == before)
            let plan = try await server.store.deployment(from: development)
            #expect(plan.conflicts.map(\.description) == ["City.population is INT64, and the deployed schema has DOUBLE: a field's type cannot change"])
            #expect(plan.gains.map(\.description) == ["+ field City.motto STRING QUERYABLE SEARCHABLE"])
        }
    }
}
