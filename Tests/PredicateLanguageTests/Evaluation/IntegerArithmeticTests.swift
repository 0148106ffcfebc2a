import Foundation
import Testing
@testable import PredicateLanguage

/// Apple's `NSExpression` computes `+ - * /` on two integers as integers: `1/2` is 0 and
/// `(24 - 18) / 87 * 100` is 0 (NSExpression's documented arithmetic functions `add:to:`,
/// `from:subtract:`, `multiply:by:`, `divide:by:`, as they ran on Apple's platforms).
@Suite("Evaluation: integer arithmetic")
struct IntegerArithmeticTests {
    func value(_ format: String, _ object: [String: Value] = [:]) throws -> Value {
        try CompiledExpression(FormatExpression(format: format)).value(for: object)
    }

    func evaluationError(_ format: String, _ object: [String: Value] = [:]) -> String? {
        do {
            _ = try value(format, object)
            return nil
        } catch {
            return "\(error)"
        }
    }

    // NSExpression(format: "1/2") evaluates to 0 on Apple's platforms.
    @Test func integerOperandsStayIntegers() throws {
        #expect(try value("1/2") == .int(0))
        #expect(try value("(24 - 18) / 87 * 100") == .int(0))
        #expect(try value("7 / 2") == .int(3))
        #expect(try value("-7 / 2") == .int(-3))
        #expect(try value("a / b", ["a": 9, "b": 4]) == .int(2))
    }

    // NSExpression(format: "1.0/2") is 0.5: a floating-point operand divides in doubles.
    @Test func aFloatingOperandGivesADouble() throws {
        #expect(try value("1.0 / 2") == .double(0.5))
        #expect(try value("1 / 2.0") == .double(0.5))
        #expect(try value("a / 2", ["a": 2.5]) == .double(1.25))
        #expect(try value("2 ** 3") == .double(8))
    }

    // Apple's divide:by: on integers fails for a zero divisor; here an evaluation error naming the expression.
    @Test func integerDivisionByZeroIsAnErrorNamingTheExpression() {
        #expect(evaluationError("a / (b - 2)", ["a": 1, "b": 2]) == "integer division by zero in a / (b - 2)")
        #expect(evaluationError("divide:by:(5, 0)") == "integer division by zero in divide:by:(5, 0)")
    }

    // The same integer arithmetic inside functions and aggregates' arguments (sum:, average:).
    @Test func insideFunctionsAndAggregates() throws {
        #expect(try value("sum:({1/2, 3/2, 5})") == .int(6))
        #expect(try value("divide:by:(7, 2)") == .int(3))
        #expect(try value("abs:(-7 / 2)") == .int(3))
        #expect(try FormatPredicate(format: "1/2 == 0").evaluate(withValue: [:]) == true)
        #expect(try FormatPredicate(format: "1/2 == 0.5").evaluate(withValue: [:]) == false)
        #expect(try FormatPredicate(format: "1.0/2 == 0.5").evaluate(withValue: [:]) == true)
        // FUNCTION's target and arguments are computed the same way before the function sees them.
        var options = EvaluationOptions()
        options.functions["pair"] = { arguments in .list(arguments) }
        let pair = try CompiledExpression(FormatExpression(format: "FUNCTION(7 / 2, 'pair', 1 / 2.0)"), options: options)
        #expect(try pair.value(for: [:] as [String: Value]) == .list([.int(3), .double(0.5)]))
    }
}
