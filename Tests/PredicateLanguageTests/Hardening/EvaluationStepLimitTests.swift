import Foundation
import PredicateLanguage
import Testing

/// The evaluation work limit (`EvaluationOptions.maximumEvaluationSteps`): nested `SUBQUERY`s
/// whose work grows exponentially stop with a clear error, and each counted construct
/// spends exactly one step per member it visits.
@Suite("Hardening: the evaluation step limit")
struct EvaluationStepLimitTests {
    private func limitMessage(_ limit: Int) -> String {
        "evaluation took more than \(limit) steps (collection members visited by SUBQUERY, ANY, ALL, NONE "
            + "and collection operators) for one object; raise EvaluationOptions.maximumEvaluationSteps to allow more"
    }

    private func options(_ limit: Int) -> EvaluationOptions {
        EvaluationOptions(maximumEvaluationSteps: limit)
    }

    /// The result of evaluating `format` on `object` with a step limit, or the error's description.
    private func outcome(_ format: String, on object: Value, limit: Int) throws -> String {
        let compiled = try CompiledPredicate(FormatPredicate(format: format), options: options(limit))
        do {
            return String(try compiled.evaluate(value: object))
        } catch {
            return error.description
        }
    }

    /// `depth` SUBQUERYs, each over the same list `x`.
    private func nestedSubqueries(_ depth: Int) -> String {
        String(repeating: "SUBQUERY(x, $v, ", count: depth) + "$v == 1" + String(repeating: ").@count > 0", count: depth)
    }

    @Test func theDefaultIsOneMillionSteps() {
        #expect(EvaluationOptions.defaultMaximumEvaluationSteps == 1_000_000)
        #expect(EvaluationOptions().maximumEvaluationSteps == 1_000_000)
    }

    @Test func ninetyNineNestedSubqueriesOverTwoMembersStopWithTheLimitError() throws {
        // 2^99 passes without a limit; with one, it stops after at most 10,000 member visits.
        let predicate = try FormatPredicate(format: nestedSubqueries(99))
        let compiled = try CompiledPredicate(predicate, options: options(10_000))
        #expect(throws: FormatPredicateError.evaluation(limitMessage(10_000))) {
            try compiled.evaluate(value: ["x": [1, 2]])
        }
    }

    @Test func ninetyNineNestedSubqueriesStopUnderTheDefaultLimit() throws {
        let predicate = try FormatPredicate(format: nestedSubqueries(99))
        #expect(throws: FormatPredicateError.evaluation(limitMessage(1_000_000))) {
            try predicate.evaluate(withValue: ["x": [1, 2]])
        }
        // One member per level is 99 steps: well within the limit.
        #expect(try predicate.evaluate(withValue: ["x": [1]]) == true)
    }

    @Test func aSubquerySpendsOneStepPerMember() throws {
        // 3 members outside, 3 inside for each: 3 + 9 = 12 steps.
        let format = "SUBQUERY(x, $a, SUBQUERY(x, $b, $a == $b).@count == 1).@count == 3"
        #expect(try outcome(format, on: ["x": [1, 2, 3]], limit: 12) == "true")
        #expect(try outcome(format, on: ["x": [1, 2, 3]], limit: 11) == limitMessage(11))
    }

    @Test func anyAllAndNoneSpendOneStepPerMember() throws {
        let object: Value = ["x": [1, 2, 3]]
        for format in ["ANY x == 3", "ALL x > 0", "NONE x == 4", "SOME x == 3"] {
            #expect(try outcome(format, on: object, limit: 3) == "true", "\(format)")
            #expect(try outcome(format, on: object, limit: 2) == limitMessage(2), "\(format)")
        }
        // A right side known only at evaluation takes the same count.
        #expect(try outcome("ANY x == y", on: ["x": [1, 2, 3], "y": 3], limit: 3) == "true")
        #expect(try outcome("ANY x == y", on: ["x": [1, 2, 3], "y": 3], limit: 2) == limitMessage(2))
        #expect(try outcome("ALL x < y", on: ["x": [1, 2, 3], "y": 9], limit: 2) == limitMessage(2))
    }

    @Test func collectionOperatorsSpendOneStepPerMemberAndCountSpendsNone() throws {
        let object: Value = ["x": [1, 2, 3, 4, 5]]
        #expect(try outcome("x.@sum == 15", on: object, limit: 5) == "true")
        #expect(try outcome("x.@sum == 15", on: object, limit: 4) == limitMessage(4))
        #expect(try outcome("x.@max == 5", on: object, limit: 4) == limitMessage(4))
        #expect(try outcome("x.@count == 5", on: object, limit: 0) == "true")
        // A key path after the operator: the operator's members, then the members' own.
        let items: Value = ["items": [["price": 2], ["price": 3]]]
        #expect(try outcome("items.@sum.price == 5", on: items, limit: 2) == "true")
        #expect(try outcome("items.@sum.price == 5", on: items, limit: 1) == limitMessage(1))
        #expect(try outcome("SELF.x.@avg == 3", on: object, limit: 4) == limitMessage(4))
    }

    @Test func theLimitIsPerEvaluation() throws {
        let compiled = try CompiledPredicate(FormatPredicate(format: "ANY x == 3"), options: options(3))
        for _ in 0..<5 {
            #expect(try compiled.evaluate(value: ["x": [1, 2, 3]]) == true)
        }
    }

    @Test func predicatesWithoutCollectionsNeverSpendSteps() throws {
        #expect(try outcome("a == 1 AND b BEGINSWITH 'x' AND c IN {1, 2}", on: ["a": 1, "b": "xy", "c": 2], limit: 0) == "true")
        #expect(try outcome("'b' IN x", on: ["x": ["a", "b"]], limit: 0) == "true")
    }

    @Test func intMaxSetsNoLimit() throws {
        // 2^12 passes of 2 members: 8,190 steps.
        let format = nestedSubqueries(12)
        #expect(try outcome(format, on: ["x": [1, 2]], limit: Int.max) == "true")
        #expect(try outcome(format, on: ["x": [1, 2]], limit: 8_190) == "true")
        #expect(try outcome(format, on: ["x": [1, 2]], limit: 8_189) == limitMessage(8_189))
    }

    @Test func compiledExpressionsHaveTheLimitToo() throws {
        let expression = try FormatExpression(format: "SUBQUERY(x, $v, $v > 1)")
        let compiled = try CompiledExpression(expression, options: options(2))
        #expect(try compiled.value(forValue: ["x": [1, 2]]) == [2])
        #expect(throws: FormatPredicateError.evaluation(limitMessage(2))) {
            try compiled.value(forValue: ["x": [1, 2, 3]])
        }
    }
}
