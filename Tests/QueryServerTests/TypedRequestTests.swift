import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import Testing

/// Issue 26, item 1: each endpoint decodes its body into a typed request, and a missing member, a
/// member of the wrong type, or a field value that does not fit is `BAD_REQUEST` whose reason names
/// the member's path and the type expected.
@Suite struct TypedRequestTests {
    static let city: JSONValue = ["recordType": "City"]

    /// Each body sent to an operation, and the exact reason of its `BAD_REQUEST`.
    static let cases: [(operation: String, body: JSONValue, reason: String)] = [
        ("records/query", [:], "query is missing (an object)"),
        ("records/query", ["query": ["recordType": 3]], "query.recordType is a string, not a number"),
        ("records/query", ["query": ["recordType": "City", "filterBy": "population > 3"]], "query.filterBy is an array of objects, not a string"),
        ("records/query", ["query": ["recordType": "City", "filterBy": [["comparator": "EQUALS", "fieldName": "population"]]]],
         #"query.filterBy[0].fieldValue is missing (a field value {"value": ..., "type": ...})"#),
        ("records/query", ["query": ["recordType": "City", "filterBy": [["comparator": "EQUALS", "fieldName": "population",
                                                                         "fieldValue": ["value": "many", "type": "INT64"]]]]],
         "query.filterBy[0].fieldValue.value is an integer (INT64), not a string"),
        ("records/query", ["query": ["recordType": "City", "filterBy": [["comparator": "EQUALS", "fieldName": "population",
                                                                         "fieldValue": ["value": "20000"]]]]],
         #"query.filterBy[0].fieldValue is a STRING ("20000"), but the field 'population' is INT64"#),
        ("records/query", ["query": ["recordType": "City", "sortBy": [["fieldName": "name", "ascending": "no"]]]],
         "query.sortBy[0].ascending is a boolean, not a string"),
        ("records/query", ["query": city, "desiredKeys": ["name", 3]], "desiredKeys[1] is a string, not a number"),
        ("records/query", ["query": city, "zoneID": "_defaultZone"], "zoneID is an object, not a string"),
        ("records/query", ["query": city, "zoneID": [:]], "zoneID.zoneName is missing (a string)"),
        ("records/query", ["query": city, "numbersAsStrings": "yes"], "numbersAsStrings is a boolean, not a string"),
        ("records/query", ["query": city, "resultsLimit": [10]], "resultsLimit is a number from 1 to 200, not an array"),
        ("records/query", ["query": ["recordType": "City", "predicate": "name == %@", "arguments": "Paris"]],
         "query.arguments is an array, not a string"),
        ("records/modify", [:], "operations is missing (an array of objects)"),
        ("records/modify", ["operations": [["operationType": "create"]]], "operations[0].record is missing (an object)"),
        ("records/modify", ["operations": ["create"]], "operations[0] is an object, not a string"),
        ("records/modify", ["operations": [["operationType": "explode", "record": [:]]]],
         "operations[0].operationType is one of create, update, forceUpdate, replace, forceReplace, delete, forceDelete, not 'explode'"),
        ("records/modify", ["operations": [["operationType": "create", "record": ["recordType": "City",
                                                                                   "fields": ["population": ["value": "many", "type": "INT64"]]]]]],
         "operations[0].record.fields.population.value is an integer (INT64), not a string"),
        ("records/modify", ["operations": [["operationType": "create", "record": ["recordType": "City", "fields": ["name": ["type": "STRING"]]]]]],
         "operations[0].record.fields.name.value is missing (the field's value)"),
        ("records/modify", ["operations": [["operationType": "update", "record": ["recordName": "paris"]]]],
         "operations[0].record.recordChangeTag is missing (a string; update needs it, or use forceUpdate)"),
        ("records/lookup", ["records": [["recordName": 5]]], "records[0].recordName is a string, not a number"),
        ("records/lookup", ["records": [[:]]], "records[0].recordName is missing (a string)"),
        ("records/lookup", ["records": .array(Array(repeating: ["recordName": "a"], count: 201))],
         "records holds at most 200 entries; this one has 201"),
        ("zones/lookup", ["zones": "_defaultZone"], "zones is an array of objects, not a string"),
        ("zones/modify", ["operations": [["operationType": "create", "zone": [:]]]], "operations[0].zone.zoneName is missing (a string)"),
        ("zones/modify", ["operations": [["operationType": "rename", "zone": ["zoneName": "z"]]]],
         #"operations[0].operationType is "create" or "delete", not 'rename'"#),
        ("predicates/check", ["predicate": 1], "predicate is an NSPredicate format string, not a number"),
        ("subscriptions/lookup", ["subscriptions": [["subscriptionID": 1]]], "subscriptions[0].subscriptionID is a string, not a number"),
        ("subscriptions/modify", ["operations": [:]], "operations is an array of {operationType, subscription}, not an object"),
    ]

    @Test func aMissingOrMistypedMemberIsABadRequestNamingItsPathAndType() async throws {
        let store = try await RecordsQueryTests.servedStore()
        try await ServerHarness.withServer(store: store) { server in
            for (operation, body, reason) in Self.cases {
                let answer = try await server.post(operation, body)
                #expect(answer.status == 400, "\(operation) \(String(decoding: body.jsonBytes(), as: UTF8.self))")
                #expect(answer.errorCode == "BAD_REQUEST", "\(operation)")
                #expect(answer.body["reason"]?.stringValue == reason, "\(operation)")
            }
        }
    }

    @Test func aBodyThatIsNotAnObjectIsABadRequest() async throws {
        let store = try await RecordsQueryTests.servedStore()
        try await ServerHarness.withServer(store: store) { server in
            let answer = try await server.send("POST", ServerHarness.path("records/query"), body: "[1]")
            #expect(answer.errorCode == "BAD_REQUEST")
            #expect(answer.body["reason"]?.stringValue == "the request body is a JSON object, not an array")
        }
    }

    @Test func aSubscriptionOperationThatDoesNotDecodeFailsAlone() async throws {
        let store = try await RecordsQueryTests.servedStore()
        try await ServerHarness.withServer(store: store) { server in
            let answer = try await server.post("subscriptions/modify", ["operations": [
                ["operationType": "create", "subscription": ["subscriptionID": "s1", "query": Self.city, "firesOn": ["create"]]],
                ["operationType": "create", "subscription": ["subscriptionID": "s2", "query": Self.city]],
            ]])
            #expect(answer.status == 200)
            let entries = answer.body["subscriptions"]?.arrayValue ?? []
            #expect(entries.count == 2)
            #expect(entries.first?["subscriptionID"] == "s1" && entries.first?["serverErrorCode"] == nil)
            #expect(entries.last?["serverErrorCode"] == "BAD_REQUEST")
            #expect(entries.last?["reason"] == #"operations[1].subscription.firesOn is missing (an array of "create", "update" or "delete")"#)
        }
    }
}
