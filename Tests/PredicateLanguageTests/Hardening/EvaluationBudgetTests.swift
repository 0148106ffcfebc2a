import Foundation
import PredicateLanguage
import Testing

/// A budget shared by many evaluations (``EvaluationOptions/budget``): the steps of all of them
/// together, and a deadline. Only steps are counted in these tests, never time: the deadline is
/// tested already passed, or far away.
@Suite("Hardening: a budget shared across evaluations")
struct EvaluationBudgetTests {
    private func compiled(_ format: String, _ budget: EvaluationBudget, perObject: Int = EvaluationOptions.defaultMaximumEvaluationSteps) throws -> CompiledPredicate {
        try CompiledPredicate(FormatPredicate(format: format), options: EvaluationOptions(maximumEvaluationSteps: perObject, budget: budget))
    }

    @Test func theStepsOfEveryEvaluationAddUp() throws {
        // 4 steps an object: the third object takes the total past 10.
        let budget = EvaluationBudget(maximumSteps: 10)
        let predicate = try compiled("ANY x == 9", budget)
        let object: Value = ["x": [1, 2, 3, 4]]
        #expect(try predicate.evaluate(value: object) == false)
        #expect(try predicate.evaluate(value: object) == false)
        #expect(budget.stepsTaken == 8)
        #expect(throws: FormatPredicateError.budgetExceeded(.steps(10))) { try predicate.evaluate(value: object) }
        // Spent, it stays spent.
        #expect(throws: FormatPredicateError.budgetExceeded(.steps(10))) { try predicate.evaluate(value: object) }
    }

    @Test func exactlyTheBudgetPassesAndOneStepMoreDoesNot() throws {
        let enough = EvaluationBudget(maximumSteps: 12)
        let predicate = try compiled("ANY x == 9", enough)
        for _ in 0..<3 { #expect(try predicate.evaluate(value: ["x": [1, 2, 3, 4]]) == false) }
        #expect(enough.stepsTaken == 12)
        #expect(try predicate.evaluate(value: ["x": []]) == false)
        #expect(throws: FormatPredicateError.budgetExceeded(.steps(12))) { try predicate.evaluate(value: ["x": [1]]) }
    }

    @Test func aNestedSubqueryStopsAtTheBudgetThoughEachObjectIsUnderItsOwnLimit() throws {
        // 3 + 9 = 12 steps an object, far below the limit of one object.
        let format = "SUBQUERY(x, $a, SUBQUERY(x, $b, $a == $b).@count > 1).@count > 0"
        let budget = EvaluationBudget(maximumSteps: 100)
        let predicate = try compiled(format, budget, perObject: 1_000)
        var evaluated = 0
        #expect(throws: FormatPredicateError.budgetExceeded(.steps(100))) {
            for _ in 0..<100 {
                _ = try predicate.evaluate(value: ["x": [1, 2, 3]])
                evaluated += 1
            }
        }
        #expect(evaluated == 8)
    }

    @Test func theLimitOfOneObjectStillHolds() throws {
        let predicate = try compiled("ANY x == 9", EvaluationBudget(maximumSteps: 1_000), perObject: 3)
        #expect(throws: FormatPredicateError.evaluation(
            "evaluation took more than 3 steps (collection members visited by SUBQUERY, ANY, ALL, NONE "
                + "and collection operators) for one object; raise EvaluationOptions.maximumEvaluationSteps to allow more")) {
            try predicate.evaluate(value: ["x": [1, 2, 3, 4]])
        }
    }

    @Test func aPassedDeadlineStopsTheFirstEvaluation() throws {
        let budget = EvaluationBudget(deadline: .now - .seconds(1))
        // Even one that takes no step.
        #expect(throws: FormatPredicateError.budgetExceeded(.deadline)) { try compiled("a == 1", budget).evaluate(value: ["a": 1]) }
        let expression = try CompiledExpression(FormatExpression(format: "x.@sum"), options: EvaluationOptions(budget: budget))
        #expect(throws: FormatPredicateError.budgetExceeded(.deadline)) { try expression.value(forValue: ["x": [1, 2]]) }
    }

    @Test func aDistantDeadlineCountsEveryStepAcrossItsChecks() throws {
        // With a deadline the steps are settled every few thousand: 10,000 members a pass, 3 passes.
        let budget = EvaluationBudget(maximumSteps: 30_000, deadline: .now + .seconds(3_600))
        let predicate = try compiled("ANY x == -1", budget)
        let object: Value = ["x": .list((0..<10_000).map { Value.int(Int64($0)) })]
        for _ in 0..<3 { #expect(try predicate.evaluate(value: object) == false) }
        #expect(budget.stepsTaken == 30_000)
        #expect(throws: FormatPredicateError.budgetExceeded(.steps(30_000))) { try predicate.evaluate(value: ["x": [1]]) }
    }

    @Test func theErrorsSayWhatStopped() {
        #expect(FormatPredicateError.budgetExceeded(.steps(5)).description
            == "evaluation took more than 5 steps (collection members visited by SUBQUERY, ANY, ALL, NONE and collection operators) "
            + "across every object its budget counts; EvaluationOptions.budget sets the limit")
        #expect(FormatPredicateError.budgetExceeded(.deadline).description
            == "evaluation was still running at its budget's deadline (EvaluationOptions.budget)")
    }
}
