import EngineTestSupport
import Foundation
import QueryServer
import RecordStore
import Testing

/// A Core Data model's validation on `query serve`: `records/modify` answers each record that
/// breaks a rule with its own per-record error (`BAD_REQUEST`, the rules and Core Data's codes in
/// the reason), as CloudKit answers other refusals; an atomic request fails its other records
/// with `ATOMIC_ERROR`, and nothing is written.
@Suite("Model validation on query serve")
struct ModelValidationRoutesTests {
    static let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("RecordStoreTests/Schema/Fixtures/Library.xcdatamodeld/Library.xcdatamodel").path

    static var engines: [TestEngine] { [TestEngine.sqlite] + (TestEngine.allCases.contains(.postgres) ? [TestEngine.postgres] : []) }

    static func createBook(_ name: String, _ fields: [String: JSONValue]) -> JSONValue {
        var all: [String: JSONValue] = ["name": ["value": .string("Book \(name)")], "sku": ["value": "BOO-1234"]]
        for (key, value) in fields { all[key] = value }
        return ["operationType": "create", "record": ["recordName": .string(name), "recordType": "Book", "fields": .object(all)]]
    }

    @Test("records/modify answers each broken record with BAD_REQUEST and its rules; atomic requests write nothing", arguments: engines)
    func perRecordAnswers(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await store.apply(try CoreDataModelReader.read(at: Self.model))
        try await ServerHarness.withServer(store: store) { server in
            let loose = try await server.post("records/modify", ["atomic": false, "operations": [
                Self.createBook("good", ["pages": ["value": 120]]),
                Self.createBook("long", ["pages": ["value": 9000], "sku": ["value": "bad"]]),
            ]])
            #expect(loose.status == 200)
            #expect(loose.records.first?["recordName"] == "good")
            #expect(loose.records.first?["serverErrorCode"] == nil)
            // A new record gets the model's defaults.
            #expect(loose.records.first?["fields"]?["price"]?["value"] == 0.0)
            #expect(loose.records.first?["fields"]?["inPrint"]?["value"] == 1)
            #expect(loose.records.last == [
                "recordName": "long", "serverErrorCode": "BAD_REQUEST",
                "reason": """
                    The save broke 2 rules of the schema (1560 NSValidationMultipleErrorsError):
                      Book 'long': sku is "bad", which does not match the pattern "[A-Z]{3}-[0-9]{4}" (1680 NSValidationStringPatternMatchingError)
                      Book 'long': pages is 9000, above the maximum 5000 (1610 NSValidationNumberTooLargeError)
                    """,
            ])

            let atomic = try await server.post("records/modify", ["atomic": true, "operations": [
                Self.createBook("fine", [:]),
                Self.createBook("cheap", ["price": ["value": -1.5]]),
            ]])
            #expect(atomic.records.map { $0["serverErrorCode"] } == ["ATOMIC_ERROR", "BAD_REQUEST"])
            #expect(atomic.records.last?["reason"] == "The save broke a rule of the schema: Book 'cheap': price is -1.5, below the minimum 0 (1620 NSValidationNumberTooSmallError)")
            let lookup = try await server.post("records/lookup", ["records": [["recordName": "fine"], ["recordName": "cheap"], ["recordName": "good"]]])
            #expect(lookup.records.map { $0["serverErrorCode"] } == ["NOT_FOUND", "NOT_FOUND", nil])
        }
    }
}
