import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

/// Evaluation errors raised while a query runs (the step limit in the residual predicate,
/// a regular expression over its time limit inside `query_test`) come back from both
/// engines as the same typed `RecordStoreError.predicate(.evaluation(...))`.
@Suite("Hardening: evaluation errors reach the caller from both engines")
struct EvaluationErrorPropagationTests {
    private func store(_ fields: [String: Value]) throws -> [Store] {
        let stores = try SmallStores.all()
        for store in stores {
            try store.save([Record(recordType: "Item", recordID: RecordID(recordName: "one"), fields: fields)])
        }
        return stores
    }

    @Test func theStepLimitStopsNestedSubqueriesInEveryEngine() throws {
        let depth = 30
        let format = "name == 'x' AND "
            + String(repeating: "SUBQUERY(tags, $v, ", count: depth) + "$v == 'a'" + String(repeating: ").@count > 0", count: depth)
        let expected = RecordStoreError.predicate(.evaluation(
            "evaluation took more than 1000000 steps (collection members visited by SUBQUERY, ANY, ALL, NONE "
                + "and collection operators) for one object; raise EvaluationOptions.maximumEvaluationSteps to allow more"))
        for store in try store(["name": "x", "tags": ["a", "b"]]) {
            #expect(throws: expected, "\(store.engineName)") {
                try store.count(ofType: "Item", matching: FormatPredicate(format: format))
            }
            #expect(throws: expected, "\(store.engineName)") {
                try store.records(ofType: "Item", matching: FormatPredicate(format: format), limit: 5)
            }
        }
    }

    @Test func aRegularExpressionOverItsTimeLimitInsideQueryTestIsAPredicateError() throws {
        // In SQLite, `name MATCHES ...` runs through the query_test function, whose errors
        // cross SQLite as text and come back typed.
        // The match runs under a deterministic work limit; running out of it is a clear error,
        // never "no match".
        let subject = String(repeating: "a", count: 30) + "!"
        let expected = RecordStoreError.predicate(.evaluation(
            #"regular expression "(a+)+$" needed more than its work limit of 1000 units (ICU match-engine steps) to match a string of 31 UTF-16 code units; simplify the pattern or raise EvaluationOptions.regularExpressionLimits"#))
        for store in try store(["name": .string(subject)]) {
            #expect(throws: expected, "\(store.engineName)") {
                try store.count(ofType: "Item", matching: FormatPredicate(format: "name MATCHES '(a+)+$'"))
            }
        }
    }
}
