import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import Testing

/// `records/query` through a real socket: every comparator against the same query run
/// through the store, sorts, paging to the end, desired keys, and errors.
@Suite struct RecordsQueryTests {
    /// Twelve cities with every kind of field the comparators read.
    static func cities() -> [Record] {
        let rows: [(String, String, Int64, String, Double, Double, [String])] = [
            ("paris", "Paris", 2_138_551, "FR", 48.8566, 2.3522, ["capital", "river"]),
            ("lyon", "Lyon", 513_275, "FR", 45.7640, 4.8357, ["river"]),
            ("marseille", "Marseille", 861_635, "FR", 43.2965, 5.3698, ["port", "sea"]),
            ("nice", "Nice", 342_669, "FR", 43.7102, 7.2620, ["sea"]),
            ("versailles", "Versailles", 85_205, "FR", 48.8049, 2.1204, []),
            ("berlin", "Berlin", 3_644_826, "DE", 52.5200, 13.4050, ["capital", "river"]),
            ("hamburg", "Hamburg", 1_841_179, "DE", 53.5511, 9.9937, ["port", "river"]),
            ("munich", "München", 1_471_508, "DE", 48.1351, 11.5820, []),
            ("madrid", "Madrid", 3_223_334, "ES", 40.4168, -3.7038, ["capital"]),
            ("barcelona", "Barcelona", 1_620_343, "ES", 41.3874, 2.1686, ["port", "sea"]),
            ("sevilla", "Sevilla", 688_711, "ES", 37.3891, -5.9845, ["river"]),
            ("saint-denis", "Saint-Denis", 112_091, "FR", 48.9362, 2.3574, []),
        ]
        return rows.map { name, display, population, country, latitude, longitude, tags in
            Record(recordType: "City", recordID: RecordID(recordName: name), fields: [
                "name": .string(display), "population": .int(population), "countrycode": .string(country),
                "location": .location(Location(latitude: latitude, longitude: longitude)),
                "tags": .list(tags.map(Value.string)), "description": .string("\(display) is a city in \(country)"),
            ])
        }
    }

    static func servedStore(_ engine: TestEngine = .sqlite) async throws -> Store {
        let store = try engine.makeStore()
        // Every index type: requests go to the production environment, where each comparator
        // needs its index (ranges a sortable one).
        try await store.define(RecordTypeSchema(name: "City", justInTimeIndexes: .all))
        _ = try await store.save(cities())
        return store
    }

    /// The record names the store itself returns for a predicate, by record name.
    static func expected(_ store: Store, _ format: String, _ arguments: [Value] = []) async throws -> [String] {
        let query = try RecordQuery(recordType: "City", predicate: FormatPredicate(format: format, argumentArray: arguments), sorts: [Sort("recordName")])
        return try await store.records(matching: query, resultsLimit: 200).records.map(\.recordID.recordName)
    }

    static func query(_ filters: [JSONValue], sortBy: JSONValue = [["systemFieldName": "recordName", "ascending": true]]) -> JSONValue {
        ["query": ["recordType": "City", "filterBy": .array(filters), "sortBy": sortBy]]
    }

    /// Each comparator with its value, and the predicate the store runs for it.
    static let comparatorCases: [(filter: JSONValue, format: String, arguments: [Value])] = [
        (["comparator": "EQUALS", "fieldName": "countrycode", "fieldValue": ["value": "FR", "type": "STRING"]], "countrycode == 'FR'", []),
        (["comparator": "NOT_EQUALS", "fieldName": "countrycode", "fieldValue": ["value": "FR"]], "countrycode != 'FR'", []),
        (["comparator": "LESS_THAN", "fieldName": "population", "fieldValue": ["value": 600000, "type": "INT64"]], "population < 600000", []),
        (["comparator": "LESS_THAN_OR_EQUALS", "fieldName": "population", "fieldValue": ["value": 513275]], "population <= 513275", []),
        (["comparator": "GREATER_THAN", "fieldName": "population", "fieldValue": ["value": "1500000", "type": "INT64"]], "population > 1500000", []),
        (["comparator": "GREATER_THAN_OR_EQUALS", "fieldName": "population", "fieldValue": ["value": 1471508]], "population >= 1471508", []),
        (["comparator": "BEGINS_WITH", "fieldName": "name", "fieldValue": ["value": "M"]], "name BEGINSWITH 'M'", []),
        (["comparator": "NOT_BEGINS_WITH", "fieldName": "name", "fieldValue": ["value": "M"]], "NOT name BEGINSWITH 'M'", []),
        (["comparator": "IN", "fieldName": "countrycode", "fieldValue": ["value": ["DE", "ES"], "type": "STRING_LIST"]], "countrycode IN {'DE', 'ES'}", []),
        (["comparator": "NOT_IN", "fieldName": "countrycode", "fieldValue": ["value": ["DE", "ES"], "type": "STRING_LIST"]], "NOT countrycode IN {'DE', 'ES'}", []),
        (["comparator": "LIST_CONTAINS", "fieldName": "tags", "fieldValue": ["value": "river"]], "'river' IN tags", []),
        (["comparator": "NOT_LIST_CONTAINS", "fieldName": "tags", "fieldValue": ["value": "river"]], "NOT 'river' IN tags", []),
        (["comparator": "LIST_CONTAINS_ANY", "fieldName": "tags", "fieldValue": ["value": ["sea", "capital"], "type": "STRING_LIST"]], "ANY tags IN {'sea', 'capital'}", []),
        (["comparator": "NOT_LIST_CONTAINS_ANY", "fieldName": "tags", "fieldValue": ["value": ["sea", "capital"], "type": "STRING_LIST"]], "NONE tags IN {'sea', 'capital'}", []),
        (["comparator": "LIST_CONTAINS_ALL", "fieldName": "tags", "fieldValue": ["value": ["port", "river"], "type": "STRING_LIST"]], "'port' IN tags AND 'river' IN tags", []),
        (["comparator": "NOT_LIST_CONTAINS_ALL", "fieldName": "tags", "fieldValue": ["value": ["port", "river"], "type": "STRING_LIST"]], "NOT ('port' IN tags AND 'river' IN tags)", []),
        (["comparator": "LIST_MEMBER_BEGINS_WITH", "fieldName": "tags", "fieldValue": ["value": "ri"]], "ANY tags BEGINSWITH 'ri'", []),
        (["comparator": "NOT_LIST_MEMBER_BEGINS_WITH", "fieldName": "tags", "fieldValue": ["value": "ri"]], "NONE tags BEGINSWITH 'ri'", []),
        (["comparator": "NEAR", "fieldName": "location", "fieldValue": ["value": ["latitude": 48.8566, "longitude": 2.3522], "type": "LOCATION"], "distance": 20000],
         "distanceToLocation:fromLocation:(location, %@) < 20000", [.location(Location(latitude: 48.8566, longitude: 2.3522))]),
        (["comparator": "LESS_THAN", "fieldName": "location", "fieldValue": ["value": ["latitude": 48.8566, "longitude": 2.3522], "type": "LOCATION"], "distance": 500000],
         "distanceToLocation:fromLocation:(location, %@) < 500000", [.location(Location(latitude: 48.8566, longitude: 2.3522))]),
        (["comparator": "CONTAINS_ALL_TOKENS", "fieldName": "description", "fieldValue": ["value": "city FR"]],
         "ANY tokenize:using:(description, nil) == 'city' AND ANY tokenize:using:(description, nil) == 'fr'", []),
        (["comparator": "CONTAINS_ANY_TOKENS", "fieldName": "description", "fieldValue": ["value": "Lyon Nice"]],
         "ANY tokenize:using:(description, nil) == 'lyon' OR ANY tokenize:using:(description, nil) == 'nice'", []),
        (["comparator": "EQUALS", "systemFieldName": "recordName", "fieldValue": ["value": ["recordName": "lyon"], "type": "REFERENCE"]], "recordName == 'lyon'", []),
        (["comparator": "EQUALS", "fieldName": "___createdBy", "fieldValue": ["value": ["recordName": "_defaultOwner"], "type": "REFERENCE"]], "TRUEPREDICATE", []),
    ]

    @Test(arguments: comparatorCases.indices)
    func everyComparatorAnswersAsTheStore(index: Int) async throws {
        let (filter, format, arguments) = Self.comparatorCases[index]
        let store = try await Self.servedStore()
        let expected = try await Self.expected(store, format, arguments)
        try await ServerHarness.withServer(store: store) { server in
            let answer = try await server.post("records/query", Self.query([filter]))
            #expect(answer.status == 200, "\(answer.body)")
            #expect(answer.recordNames == expected, "\(format)")
            #expect(!expected.isEmpty || format.contains("NOT") || format.contains("NONE"))
        }
    }

    @Test func filtersCombineWithAndAndSortsApply() async throws {
        let store = try await Self.servedStore()
        try await ServerHarness.withServer(store: store) { server in
            let answer = try await server.post("records/query", Self.query(
                [["comparator": "EQUALS", "fieldName": "countrycode", "fieldValue": ["value": "FR"]],
                 ["comparator": "GREATER_THAN", "fieldName": "population", "fieldValue": ["value": 300000]]],
                sortBy: [["fieldName": "population", "ascending": false]]))
            #expect(answer.recordNames == ["paris", "marseille", "lyon", "nice"])
            let paris = try #require(answer.records.first)
            #expect(paris["recordType"] == "City")
            #expect(paris["fields"]?["population"] == ["value": 2_138_551, "type": "INT64"])
            #expect(paris["fields"]?["location"]?["type"] == "LOCATION")
            #expect(paris["fields"]?["tags"] == ["value": ["capital", "river"], "type": "STRING_LIST"])
            #expect(paris["recordChangeTag"]?.stringValue != nil)
            #expect(paris["created"]?["timestamp"]?.integerValue != nil)
            #expect(answer.contentType?.hasPrefix("application/json") == true)
        }
    }

    @Test func theServersBytesAreTheServicesJSON() async throws {
        let store = try await Self.servedStore()
        let body: JSONValue = ["resultsLimit": 5, "numbersAsStrings": true, "query": ["recordType": "City", "sortBy": [["fieldName": "population"]]]]
        let direct = try await CloudKitService(store: store).query(body, in: Namespace(environment: .production, database: .public))
        try await ServerHarness.withServer(store: store) { server in
            let answer = try await server.post("records/query", body)
            #expect(answer.body["records"] == direct["records"])
            #expect(answer.records.count == 5)
            #expect(answer.body["continuationMarker"]?.stringValue != nil)
        }
    }

    @Test func aDistanceSortOrdersByNearness() async throws {
        let store = try await Self.servedStore()
        try await ServerHarness.withServer(store: store) { server in
            let answer = try await server.post("records/query", Self.query(
                [["comparator": "EQUALS", "fieldName": "countrycode", "fieldValue": ["value": "FR"]]],
                sortBy: [["fieldName": "location", "ascending": true, "relativeLocation": ["latitude": 45.76, "longitude": 4.84]]]))
            #expect(answer.recordNames == ["lyon", "marseille", "nice", "paris", "versailles", "saint-denis"])
        }
    }

    @Test func pagingByMarkerReturnsEveryRecordOnce() async throws {
        let store = try await Self.servedStore()
        try await ServerHarness.withServer(store: store) { server in
            var request: JSONValue = ["resultsLimit": 5, "query": ["recordType": "City", "sortBy": [["fieldName": "population", "ascending": true]]]]
            var names: [String] = []
            var pages = 0
            while true {
                let answer = try await server.post("records/query", request)
                #expect(answer.status == 200)
                names += answer.recordNames
                pages += 1
                guard let marker = answer.body["continuationMarker"]?.stringValue else { break }
                request = ["resultsLimit": 5, "continuationMarker": .string(marker)]
            }
            #expect(pages == 3)
            func population(_ record: Record) -> Int64 {
                if case .int(let value)? = record["population"] { return value }
                return 0
            }
            let expected = Self.cities().sorted { population($0) < population($1) }.map(\.recordID.recordName)
            #expect(names == expected)
        }
    }

    @Test func desiredKeysAndNumbersAsStrings() async throws {
        let store = try await Self.servedStore()
        try await ServerHarness.withServer(store: store) { server in
            let answer = try await server.post("records/query", [
                "desiredKeys": ["population"], "numbersAsStrings": true,
                "query": ["recordType": "City", "filterBy": [["comparator": "EQUALS", "systemFieldName": "recordName", "fieldValue": ["value": "lyon"]]]],
            ])
            #expect(answer.records.first?["fields"] == ["population": ["value": "513275", "type": "INT64"]])
        }
    }

    @Test func anNSPredicateStringIsAnExtensionHeldToCloudKitRules() async throws {
        let store = try await Self.servedStore()
        try await ServerHarness.withServer(store: store) { server in
            let answer = try await server.post("records/query", [
                "query": ["recordType": "City", "predicate": "population > %@ AND countrycode == 'DE'", "arguments": [1_500_000],
                          "sortBy": [["systemFieldName": "recordName"]]],
            ])
            #expect(answer.recordNames == ["berlin", "hamburg"])
            // MATCHES is not in CKQuery's language: refused under the CloudKit rules.
            let refused = try await server.post("records/query", ["query": ["recordType": "City", "predicate": "name MATCHES 'P.*'"]])
            #expect(refused.status == 400)
            #expect(refused.errorCode == "BAD_REQUEST")
        }
    }

    @Test func badRequestsAreCloudKitErrors() async throws {
        let store = try await Self.servedStore()
        try await ServerHarness.withServer(store: store) { server in
            let path = ServerHarness.path("records/query")
            let malformed = try await server.send("POST", path, body: "{not json")
            #expect(malformed.status == 400)
            #expect(malformed.errorCode == "BAD_REQUEST")
            #expect(malformed.body["uuid"]?.stringValue?.count == 36)
            let unknown = try await server.post("records/query", Self.query([["comparator": "SOUNDS_LIKE", "fieldName": "name", "fieldValue": ["value": "x"]]]))
            #expect(unknown.errorCode == "BAD_REQUEST")
            #expect(unknown.body["reason"]?.stringValue?.contains("SOUNDS_LIKE") == true)
            let hostile = try await server.post("records/query", Self.query([["comparator": "EQUALS", "fieldName": "name\" OR 1=1 --", "fieldValue": ["value": "x"]]]))
            #expect(hostile.errorCode == "BAD_REQUEST")
            let tooMany = try await server.post("records/query", ["resultsLimit": 201, "query": ["recordType": "City"]])
            #expect(tooMany.errorCode == "BAD_REQUEST")
            let unknownType = try await server.post("records/query", ["query": ["recordType": "Planet"]])
            #expect(unknownType.status == 400)
            let missingZone = try await server.post("records/query", ["zoneID": ["zoneName": "Nowhere"], "query": ["recordType": "City"]])
            #expect(missingZone.status == 404)
            #expect(missingZone.errorCode == "ZONE_NOT_FOUND")
            // Nothing is shared with this server's one user: its shared database has no zone.
            let shared = try await server.post("records/query", ["query": ["recordType": "City"]], database: "shared")
            #expect(shared.errorCode == "ZONE_NOT_FOUND")
            let forged = try await server.post("records/query", ["continuationMarker": "AAAAforged"])
            #expect(forged.errorCode == "BAD_REQUEST")
            let health = try await server.send("GET", "/health")
            #expect(health.body == ["status": "ok"])
        }
    }

    @Test func aBodyOverTheLimitIsRefused() async throws {
        let store = try await Self.servedStore()
        try await ServerHarness.withServer(store: store, configuration: .init(host: "127.0.0.1", port: 0, maximumBodySize: 1_000)) { server in
            let answer = try await server.send("POST", ServerHarness.path("records/query"), body: "{\"query\": \"" + String(repeating: "x", count: 5_000) + "\"}")
            #expect(answer.status == 413)
            #expect(answer.errorCode == "QUOTA_EXCEEDED")
        }
    }

    @Test func environmentsAreSeparate() async throws {
        let store = try await Self.servedStore()
        try await ServerHarness.withServer(store: store) { server in
            let created = try await server.post("records/modify", [
                "operations": [["operationType": "create", "record": ["recordName": "dev-only", "recordType": "City", "fields": ["name": ["value": "Dev"]]]]],
            ], environment: "development")
            #expect(created.recordNames == ["dev-only"])
            let development = try await server.post("records/query", ["query": ["recordType": "City"]], environment: "development")
            #expect(development.recordNames == ["dev-only"])
            let production = try await server.post("records/query", ["query": ["recordType": "City"]])
            #expect(production.records.count == 12)
            #expect(!production.recordNames.contains("dev-only"))
        }
    }
}
