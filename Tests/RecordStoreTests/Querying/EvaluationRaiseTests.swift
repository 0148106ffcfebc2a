import EngineTestSupport
import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// Two evaluation rules of Apple's, where evaluation raises rather than answering false, kept on
/// every engine:
///
/// - arithmetic on a missing value raises (`12.845 * x + y == 14.845` with `y` missing, or
///   reached through a to-one that is nil);
/// - `ANY`, `ALL`, `NONE` and `SOME` need a collection on the left ("The left hand side for an
///   ALL or ANY operator must be either an NSArray or an NSSet."): a string or a to-one raises.
///
/// A query raises when it evaluates a record that raises; `AND` and `OR` evaluate their parts in
/// order and stop at the first that decides, so a record an earlier part settles never raises.
/// The SQL engines leave such parts, and every part of an `AND` after them, to the residual, so
/// that they raise exactly where the evaluator does.
@Suite("Evaluation raises as Apple's does, on every engine")
struct EvaluationRaiseTests {
    static func store(_ engine: TestEngine) throws -> Store {
        let store = try engine.makeStore()
        try store.define([
            RecordTypeSchema(name: "Dept", fields: [FieldSchema(name: "budget", type: .double)]),
            RecordTypeSchema(
                name: "Item",
                fields: [
                    FieldSchema(name: "x", type: .int64), FieldSchema(name: "y", type: .int64), FieldSchema(name: "w", type: .int64),
                    FieldSchema(name: "owner", type: .string), FieldSchema(name: "tags", type: .list(.string)),
                ],
                relationships: [.toOne("dept", destination: "Dept")]),
        ])
        try store.save([
            Record(recordType: "Dept", recordID: RecordID(recordName: "d1"), fields: ["budget": .double(10)]),
            Record(recordType: "Item", recordID: RecordID(recordName: "a"), fields: [
                "x": 1, "y": 2, "owner": "a", "tags": .list(["red"]), "dept": .reference(Reference(recordName: "d1")),
            ]),
            Record(recordType: "Item", recordID: RecordID(recordName: "b"), fields: ["x": 2]),
        ])
        return store
    }

    static func raise(_ text: String) -> RecordStoreError {
        .predicate(.evaluation(text))
    }

    static let missingY = raise("arithmetic on a missing value (nil) in (x * 2) + y")
    static let notACollection = raise(
        #"the left hand side for an ALL or ANY operator must be either an NSArray or an NSSet, but it is a string ("a")"#)

    /// Predicates and what every engine answers: the records found, or the error raised.
    static let cases: [(format: String, answer: Result<[String], RecordStoreError>)] = [
        ("x * 2 + y == 4", .failure(missingY)),
        ("y != nil AND x * 2 + y == 4", .success(["a"])),
        // AND evaluates in order: b raises before `y != nil` could reject it.
        ("x * 2 + y == 4 AND y != nil", .failure(missingY)),
        ("y == nil OR x * 2 + y == 4", .success(["a", "b"])),
        ("x * 2 + y == 4 OR y == nil", .failure(missingY)),
        ("NOT (y != nil AND x * 2 + y == 4)", .success(["b"])),
        ("x == 1 AND -y == -2", .success(["a"])),
        ("-y == -2", .failure(raise("arithmetic on a missing value (nil) in -y"))),
        ("modulus:by:(y, 2) == 0", .failure(raise("arithmetic on a missing value (nil) in modulus:by:(nil, 2)"))),
        // A field no record holds: every record raises.
        ("w * 2 == 4", .failure(raise("arithmetic on a missing value (nil) in w * 2"))),
        ("2 * 3 == 6 AND x == 2", .success(["b"])),
        // Through a to-one that is nil.
        // (The message names the walked key as the store reads it, `dept#`.)
        ("dept.budget * 2 > 5", .failure(raise("arithmetic on a missing value (nil) in dept#.budget * 2"))),
        ("dept != nil AND dept.budget * 2 > 5", .success(["a"])),
        // ANY and its kin need a collection.
        ("ANY owner IN {'a', 'b'}", .failure(notACollection)),
        ("ALL owner == 'a'", .failure(notACollection)),
        ("NONE owner == 'z'", .failure(notACollection)),
        ("owner == 'a' AND ANY tags == 'red'", .success(["a"])),
        ("owner == nil AND ANY owner == 'a'", .success([])),
        ("ANY tags IN {'red', 'blue'}", .success(["a"])),
        ("ANY w == 1", .success([])),
        ("ANY dept == %@", .failure(raise(
            #"the left hand side for an ALL or ANY operator must be either an NSArray or an NSSet, but it is a reference (d1)"#))),
        ("x == 1 AND ANY recordName == 'a'", .failure(raise(
            #"the left hand side for an ALL or ANY operator must be either an NSArray or an NSSet, but it is a string ("a")"#))),
    ]

    @Test("Each predicate finds or raises as the evaluator does", arguments: TestEngine.allCases)
    func raisesWhereTheEvaluatorRaises(engine: TestEngine) throws {
        let store = try Self.store(engine)
        let reference = Value.reference(Reference(recordName: "d1"))
        for (format, answer) in Self.cases {
            let predicate = try FormatPredicate(format: format, argumentArray: format.contains("%@") ? [reference] : [])
            let found = Result { () throws(RecordStoreError) in
                try store.records(ofType: "Item", matching: predicate, sorts: [Sort("recordName")]).map(\.recordID.recordName)
            }
            switch (found, answer) {
            case (.success(let names), .success(let expected)):
                #expect(names == expected, "\(engine): \(format)")
            case (.failure(let error), .failure(let expected)):
                #expect(error == expected, "\(engine): \(format)")
            default:
                Issue.record("\(engine): \(format) answered \(String(describing: found)), expected \(String(describing: answer))")
            }
            // A count answers as the fetch does.
            let counted = Result { () throws(RecordStoreError) in try store.count(ofType: "Item", matching: predicate) }
            switch (counted, answer) {
            case (.success(let count), .success(let expected)): #expect(count == expected.count, "\(engine): count \(format)")
            case (.failure(let error), .failure(let expected)): #expect(error == expected, "\(engine): count \(format)")
            default: Issue.record("\(engine): count \(format) answered \(String(describing: counted)), expected \(String(describing: answer))")
            }
        }
    }

    @Test func theEvaluatorRaisesOnTheRecordThatReadsNothing() throws {
        let predicate = try CompiledPredicate(FormatPredicate(format: "12.845 * x + y == 14.845"))
        #expect(try predicate.evaluate(value: ["x": 1.0, "y": 2.0] as Value) == true)
        #expect(throws: FormatPredicateError.evaluation("arithmetic on a missing value (nil) in (12.845 * x) + y")) {
            try predicate.evaluate(value: ["x": 1.0] as Value)
        }
        #expect(throws: FormatPredicateError.evaluation("arithmetic on a missing value (nil) in 12.845 * x")) {
            try predicate.evaluate(value: ["y": 2.0] as Value)
        }
        let any = try CompiledPredicate(FormatPredicate(format: "ANY owner IN {'a', 'b'}"))
        #expect(throws: FormatPredicateError.self) { try any.evaluate(value: ["owner": "a"] as Value) }
        #expect(try any.evaluate(value: ["owner": ["a"]] as Value) == true)
        #expect(try any.evaluate(value: [:] as Value) == false)
    }
}
