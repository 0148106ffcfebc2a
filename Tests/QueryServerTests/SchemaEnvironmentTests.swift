import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import TestSupport
import Testing

/// A server started with a schema (`query serve --schema FILE`): `GET schema` as JSON and as
/// `.ckdb` text, and the production environment's rules (no new record types or fields, queries
/// need indexes), which the development environment does not have.
@Suite struct SchemaEnvironmentTests {
    static let schemaText = """
        DEFINE SCHEMA
            RECORD TYPE City (
                name        STRING QUERYABLE SORTABLE SEARCHABLE,
                population  INT64 QUERYABLE,
                countrycode STRING
            );
        """

    /// A fresh store served with ``schemaText`` applied at start.
    static func withServer<T: Sendable>(_ body: @Sendable (ServerHarness) async throws -> T) async throws -> T {
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.schema = try CloudKitSchemaDocument(parsing: schemaText)
        return try await ServerHarness.withServer(store: try TestEngine.sqlite.makeStore(), configuration: configuration, body)
    }

    static let exportedText = """
        DEFINE SCHEMA

            RECORD TYPE City (
        \(CKDBSystemFields.lines)
                name            STRING QUERYABLE SEARCHABLE SORTABLE,
                population      INT64 QUERYABLE,
                countrycode     STRING
            );

        """

    @Test func theSchemaAnswersAsJSONAndAsCKDBText() async throws {
        try await Self.withServer { server in
            let json = try await server.send("GET", ServerHarness.path("schema"))
            #expect(json.status == 200)
            #expect(json.contentType == "application/json; charset=utf-8")
            #expect(json.body == ["recordTypes": [[
                "recordType": "City",
                "fields": [
                    ["fieldName": "name", "type": "STRING", "storeType": "string", "indexes": ["queryable", "sortable", "searchable"]],
                    ["fieldName": "population", "type": "INT64", "storeType": "int64", "indexes": ["queryable"]],
                    ["fieldName": "countrycode", "type": "STRING", "storeType": "string", "indexes": []],
                ],
            ]]])

            let ckdb = try await server.sendForText("GET", ServerHarness.path("schema") + "?format=ckdb")
            #expect(ckdb.status == 200)
            #expect(ckdb.contentType == "text/plain; charset=utf-8")
            #expect(ckdb.text == Self.exportedText)
            // The same for Accept: text/plain, and from the development environment (the served schema is applied to both).
            let accepted = try await server.sendForText("GET", ServerHarness.path("schema", environment: "development"), headers: ["Accept": "text/plain"])
            #expect(accepted.status == 200)
            #expect(accepted.text == Self.exportedText)
            let explicitJSON = try await server.send("GET", ServerHarness.path("schema") + "?format=json", headers: ["Accept": "text/plain"])
            #expect(explicitJSON.body == json.body)
            let unknown = try await server.send("GET", ServerHarness.path("schema") + "?format=xml")
            #expect(unknown.status == 400)
            #expect(unknown.errorCode == "BAD_REQUEST")
            #expect(unknown.body["reason"] == "format is json or ckdb, not 'xml'")

            // Applying the text to another store gives the same schema back.
            let copy = Store.inMemory()
            try await copy.apply(try CloudKitSchemaDocument(parsing: ckdb.text))
            #expect(try await copy.schema() == server.store.schema())
            #expect(try await copy.schemaDocument().ckdbText == Self.exportedText)
        }
    }

    static func create(_ name: String, _ recordType: String, _ fields: JSONValue) -> JSONValue {
        ["operations": [["operationType": "create", "record": ["recordName": .string(name), "recordType": .string(recordType), "fields": fields]]]]
    }

    static let byCountry: JSONValue = ["query": ["recordType": "City", "filterBy": [
        ["comparator": "EQUALS", "fieldName": "countrycode", "fieldValue": ["value": "FR"]],
    ]]]
    static let byPopulation: JSONValue = ["query": ["recordType": "City", "sortBy": [["fieldName": "population", "ascending": false]]]]

    @Test func productionRefusesNewTypesNewFieldsAndQueriesWithoutIndexes() async throws {
        try await Self.withServer { server in
            let paris = try await server.post("records/modify", Self.create("paris", "City", [
                "name": ["value": "Paris"], "population": ["value": 2_138_551], "countrycode": ["value": "FR"],
            ]))
            #expect(paris.status == 200)
            #expect(paris.records.first?["fields"]?["name"] == ["value": "Paris", "type": "STRING"])

            let note = try await server.post("records/modify", Self.create("note-1", "Note", ["title": ["value": "Hello"]]))
            #expect(note.status == 200)
            #expect(note.records == [[
                "recordName": "note-1", "serverErrorCode": "BAD_REQUEST", "reason": "Cannot create record type 'Note' in production mode",
            ]])
            let mayor = try await server.post("records/modify", Self.create("lyon", "City", ["name": ["value": "Lyon"], "mayor": ["value": "G. Doucet"]]))
            #expect(mayor.records == [[
                "recordName": "lyon", "serverErrorCode": "BAD_REQUEST", "reason": "Cannot add field 'mayor' to record type 'City' in production mode",
            ]])
            // An atomic request with one refused record writes nothing; the other is ATOMIC_ERROR.
            let mixed = try await server.post("records/modify", ["operations": [
                ["operationType": "create", "record": ["recordName": "nice", "recordType": "City", "fields": ["name": ["value": "Nice"]]]],
                ["operationType": "create", "record": ["recordName": "note-2", "recordType": "Note", "fields": ["title": ["value": "Hi"]]]],
            ]])
            #expect(mixed.records.map { $0["serverErrorCode"] } == ["ATOMIC_ERROR", "BAD_REQUEST"])
            #expect(try await server.store.record(for: RecordID(recordName: "nice")) == nil)
            #expect(try await server.store.schema(for: "Note") == nil)
            #expect(try await server.store.schema(for: "City")?.field(named: "mayor") == nil)

            let unqueryable = try await server.post("records/query", Self.byCountry)
            #expect(unqueryable.status == 400)
            #expect(unqueryable.errorCode == "BAD_REQUEST")
            #expect(unqueryable.body["reason"] == "Field 'countrycode' is not marked queryable (record type 'City')")
            let unsortable = try await server.post("records/query", Self.byPopulation)
            #expect(unsortable.status == 400)
            #expect(unsortable.errorCode == "BAD_REQUEST")
            #expect(unsortable.body["reason"] == "Field 'population' is not marked sortable (record type 'City')")
            // A token search needs SEARCHABLE: countrycode has no index, name is searchable.
            let unsearchable = try await server.post("records/query", Self.countryTokens)
            #expect(unsearchable.status == 400)
            #expect(unsearchable.errorCode == "BAD_REQUEST")
            #expect(unsearchable.body["reason"] == "Field 'countrycode' is not marked searchable (record type 'City')")
            let searched = try await server.post("records/query", ["query": ["recordType": "City", "filterBy": [
                ["comparator": "CONTAINS_ANY_TOKENS", "fieldName": "name", "fieldValue": ["value": "paris lyon"]],
            ]]])
            #expect(searched.status == 200)
            #expect(searched.recordNames == ["paris"])

            // What the schema allows still works: a query and a sort on indexed fields, a lookup, zones, subscriptions.
            let byName = try await server.post("records/query", ["query": ["recordType": "City", "filterBy": [
                ["comparator": "EQUALS", "fieldName": "population", "fieldValue": ["value": 2_138_551]],
            ], "sortBy": [["fieldName": "name"]]]])
            #expect(byName.status == 200)
            #expect(byName.recordNames == ["paris"])
            let lookup = try await server.post("records/lookup", ["records": [["recordName": "paris"]]])
            #expect(lookup.records.first?["fields"]?["population"] == ["value": 2_138_551, "type": "INT64"])
            let zones = try await server.send("GET", ServerHarness.path("zones/list"))
            #expect(zones.body["zones"]?.arrayValue?.map { $0["zoneID"]?["zoneName"] } == ["_defaultZone"])
            let subscribed = try await server.post("subscriptions/modify", ["operations": [["operationType": "create", "subscription": [
                "subscriptionID": "paris-sized", "subscriptionType": "query", "firesOn": ["create"],
                "query": ["recordType": "City", "filterBy": [["comparator": "EQUALS", "fieldName": "population", "fieldValue": ["value": 2_138_551]]]],
            ]]]])
            #expect(subscribed.body["subscriptions"]?.arrayValue?.first?["subscriptionID"] == "paris-sized")
            let listed = try await server.send("GET", ServerHarness.path("subscriptions/list"))
            #expect(listed.body["subscriptions"]?.arrayValue?.map { $0["subscriptionID"] } == ["paris-sized"])
        }
    }

    static let countryTokens: JSONValue = ["query": ["recordType": "City", "filterBy": [
        ["comparator": "CONTAINS_ALL_TOKENS", "fieldName": "countrycode", "fieldValue": ["value": "fr"]],
    ]]]

    /// Query subscriptions the production environment refuses, each with the reason
    /// `records/query` gives for its query.
    static let refusedSubscriptions: [(id: String, query: JSONValue, reason: String)] = [
        ("unknown-type", ["recordType": "Cty"], "Did not find record type 'Cty'; did you mean 'City'?"),
        ("unknown-field", ["recordType": "City", "filterBy": [["comparator": "EQUALS", "fieldName": "nmae", "fieldValue": ["value": "Paris"]]]],
         "Field 'nmae' does not exist in record type 'City'; did you mean 'name'?"),
        ("unqueryable", Self.byCountry["query"]!, "Field 'countrycode' is not marked queryable (record type 'City')"),
        ("unsortable", ["recordType": "City", "filterBy": [["comparator": "GREATER_THAN", "fieldName": "population", "fieldValue": ["value": 1000]]]],
         "Field 'population' is not marked sortable (record type 'City')"),
        ("unsearchable", Self.countryTokens["query"]!, "Field 'countrycode' is not marked searchable (record type 'City')"),
    ]

    static func subscription(_ id: String, _ query: JSONValue) -> JSONValue {
        ["operationType": "create", "subscription": ["subscriptionID": .string(id), "subscriptionType": "query", "firesOn": ["create"], "query": query]]
    }

    @Test func productionChecksSubscriptionsAsItChecksQueries() async throws {
        try await Self.withServer { server in
            let operations = Self.refusedSubscriptions.map { Self.subscription($0.id, $0.query) }
                + [Self.subscription("searched", ["recordType": "City", "filterBy": [
                    ["comparator": "CONTAINS_ALL_TOKENS", "fieldName": "name", "fieldValue": ["value": "paris"]],
                ]])]
            let created = try await server.post("subscriptions/modify", ["operations": .array(operations)])
            #expect(created.status == 200)
            let answers = try #require(created.body["subscriptions"]?.arrayValue)
            #expect(answers.count == Self.refusedSubscriptions.count + 1)
            for (answer, refused) in zip(answers, Self.refusedSubscriptions) {
                #expect(answer == ["subscriptionID": .string(refused.id), "serverErrorCode": "BAD_REQUEST", "reason": .string(refused.reason)])
                // records/query refuses the same query with the same words.
                let queried = try await server.post("records/query", ["query": refused.query])
                #expect(queried.status == 400)
                #expect(queried.errorCode == "BAD_REQUEST")
                #expect(queried.body["reason"] == .string(refused.reason))
            }
            #expect(answers.last?["subscriptionID"] == "searched")
            #expect(answers.last?["serverErrorCode"] == nil)
            let listed = try await server.send("GET", ServerHarness.path("subscriptions/list"))
            #expect(listed.body["subscriptions"]?.arrayValue?.map { $0["subscriptionID"] } == ["searched"])

            // The development environment takes them all (its queries scan, its schema grows).
            let development = try await server.post("subscriptions/modify", ["operations": .array(operations)], environment: "development")
            #expect(development.body["subscriptions"]?.arrayValue?.map { $0["serverErrorCode"] } == Array(repeating: nil, count: operations.count),
                    "\(development.status) \(development.body)")
            let developmentList = try await server.send("GET", ServerHarness.path("subscriptions/list", environment: "development"))
            #expect(developmentList.body["subscriptions"]?.arrayValue?.count == operations.count)
        }
    }

    @Test func developmentGrowsTheSchemaAndAnswersQueriesWithoutIndexes() async throws {
        try await Self.withServer { server in
            let paris = try await server.post("records/modify", Self.create("paris", "City", [
                "name": ["value": "Paris"], "population": ["value": 2_138_551], "countrycode": ["value": "FR"],
            ]), environment: "development")
            #expect(paris.records.first?["serverErrorCode"] == nil)
            let note = try await server.post("records/modify", Self.create("note-1", "Note", ["title": ["value": "Hello"]]), environment: "development")
            #expect(note.records.first?["fields"] == ["title": ["value": "Hello", "type": "STRING"]])
            let mayor = try await server.post("records/modify", Self.create("lyon", "City", [
                "name": ["value": "Lyon"], "population": ["value": 522_250], "mayor": ["value": "G. Doucet"],
            ]), environment: "development")
            #expect(mayor.records.first?["fields"]?["mayor"] == ["value": "G. Doucet", "type": "STRING"])
            // Development's schema grew; production's did not.
            #expect(try await server.developmentStore().schema(for: "Note")?.field(named: "title")?.type == .string)
            #expect(try await server.store.schema(for: "Note") == nil)

            let byCountry = try await server.post("records/query", Self.byCountry, environment: "development")
            #expect(byCountry.status == 200)
            #expect(byCountry.recordNames == ["paris"])
            let byPopulation = try await server.post("records/query", Self.byPopulation, environment: "development")
            #expect(byPopulation.status == 200)
            #expect(byPopulation.recordNames == ["paris", "lyon"])
            let byCountryTokens = try await server.post("records/query", Self.countryTokens, environment: "development")
            #expect(byCountryTokens.status == 200)
            #expect(byCountryTokens.recordNames == ["paris"])
            let zones = try await server.send("GET", ServerHarness.path("zones/list", environment: "development"))
            #expect(zones.body["zones"]?.arrayValue?.map { $0["zoneID"]?["zoneName"] } == ["_defaultZone"])
            let lookup = try await server.post("records/lookup", ["records": [["recordName": "lyon"]]], environment: "development")
            #expect(lookup.records.first?["fields"]?["name"] == ["value": "Lyon", "type": "STRING"])
        }
    }

    @Test func aSchemaTheStoreRefusesStartsNoServer() async throws {
        let store = try TestEngine.sqlite.makeStore()
        try await store.save([Record(recordType: "City", recordID: RecordID(recordName: "paris"), fields: ["population": 2_138_551])])
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.schema = try CloudKitSchemaDocument(parsing: "DEFINE SCHEMA\n  RECORD TYPE City (\n    population STRING\n  );")
        let server = CloudKitServer(store: store, configuration: configuration)
        let refusal = SchemaLanguageError.notApplicable(
            recordType: "City", field: "population", line: 3, reason: "its type would change from INT64 to STRING; a field's type cannot change")
        await #expect(throws: refusal) {
            try await server.run { _ in Issue.record("the server listened") }
        }
        #expect(try await store.schema(for: "City")?.field(named: "population")?.type == .int64)
    }
}
