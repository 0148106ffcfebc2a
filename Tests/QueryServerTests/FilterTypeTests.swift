import EngineTestSupport
import Foundation
import QueryServer
import RecordStore
import Testing

/// F5: a `filterBy` value that does not fit its field's stored type is `BAD_REQUEST`, as
/// `records/modify` refuses the same mismatch, instead of an empty answer.
@Suite struct FilterTypeTests {
    @Test func aStringComparedWithAnInt64FieldIsABadRequest() async throws {
        let store = try await RecordsQueryTests.servedStore()
        try await ServerHarness.withServer(store: store) { server in
            let mistyped = try await server.post("records/query", RecordsQueryTests.query([
                ["comparator": "GREATER_THAN", "fieldName": "population", "fieldValue": ["value": "20000"]],
            ]))
            #expect(mistyped.status == 400)
            #expect(mistyped.errorCode == "BAD_REQUEST")
            #expect(mistyped.body["reason"]?.stringValue == #"query.filterBy[0].fieldValue is a STRING ("20000"), but the field 'population' is INT64"#)
            let typedString = try await server.post("records/query", RecordsQueryTests.query([
                ["comparator": "EQUALS", "fieldName": "population", "fieldValue": ["value": "20000", "type": "STRING"]],
            ]))
            #expect(typedString.errorCode == "BAD_REQUEST")
            let inList = try await server.post("records/query", RecordsQueryTests.query([
                ["comparator": "IN", "fieldName": "countrycode", "fieldValue": ["value": ["FR", 3], "type": "STRING_LIST"]],
            ]))
            #expect(inList.errorCode == "BAD_REQUEST")
            // What fits still runs: numbers as strings with their type, doubles against integers.
            let numbersAsStrings = try await server.post("records/query", RecordsQueryTests.query([
                ["comparator": "GREATER_THAN", "fieldName": "population", "fieldValue": ["value": "1500000", "type": "INT64"]],
            ]))
            #expect(numbersAsStrings.status == 200)
            #expect(numbersAsStrings.recordNames == (try await RecordsQueryTests.expected(store, "population > 1500000")))
            let double = try await server.post("records/query", RecordsQueryTests.query([
                ["comparator": "LESS_THAN", "fieldName": "population", "fieldValue": ["value": 600000.5]],
            ]))
            #expect(double.recordNames == (try await RecordsQueryTests.expected(store, "population < 600000.5")))
        }
    }
}
