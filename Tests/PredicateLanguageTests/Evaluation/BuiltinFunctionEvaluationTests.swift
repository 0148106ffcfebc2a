import Foundation
import Testing
@testable import PredicateLanguage

@Suite("Evaluation: built-in functions")
struct BuiltinFunctionEvaluationTests {
    func call(_ name: String, _ arguments: [FormatExpression], options: EvaluationOptions = .init()) throws -> Value {
        try EvaluationTestSupport.value(.function(name, arguments), options: options)
    }

    func error(_ name: String, _ arguments: [FormatExpression]) -> PredicateLanguage.FormatPredicateError? {
        EvaluationTestSupport.error { try call(name, arguments) }
    }

    @Test func statistics() throws {
        let numbers: FormatExpression = .constant([1, 2, 4, .null, 4])
        #expect(try call("sum:", [numbers]) == .int(11))
        #expect(try call("sum:", [.constant([1, 2.5])]) == .double(3.5))
        #expect(try call("sum:", [.constant([])]) == .int(0))
        #expect(try call("count:", [numbers]) == .int(5))
        #expect(try call("count:", [.constant(.null)]) == .int(0))
        #expect(try call("min:", [numbers]) == .int(1))
        #expect(try call("max:", [numbers]) == .int(4))
        #expect(try call("max:", [.constant(["b", "a"])]) == "b")
        #expect(try call("min:", [.constant([])]) == .null)
        #expect(try call("average:", [numbers]) == .double(2.75))
        #expect(try call("average:", [.constant([])]) == .null)
        #expect(try call("median:", [numbers]) == .double(3))
        #expect(try call("median:", [.constant([5, 1, 3])]) == .double(3))
        #expect(try call("median:", [.constant([])]) == .null)
        #expect(try call("mode:", [numbers]) == [4])
        #expect(try call("mode:", [.constant([1, 2, 2, 1, 3])]) == [1, 2])
        #expect(try call("mode:", [.constant([])]) == [])
        #expect(try call("stddev:", [.constant([2, 4, 4, 4, 5, 5, 7, 9])]) == .double(2))
        #expect(try call("stddev:", [.constant([])]) == .null)
        #expect(try call("sum:", [.aggregate([.constant(1), .keyPath("missing"), .constant(2)])]) == .int(3))
        #expect(error("sum:", [.constant([1, "x"])]) == .evaluation("sum: needs numbers, but the list holds a string (\"x\")"))
        #expect(error("min:", [.constant([1, "x"])]) == .evaluation("min: cannot compare a string with a integer"))
    }

    @Test func arithmetic() throws {
        #expect(try call("add:to:", [.constant(2), .constant(3)]) == .int(5))
        #expect(try call("from:subtract:", [.constant(2), .constant(3)]) == .int(-1))
        #expect(try call("multiply:by:", [.constant(2), .constant(3.5)]) == .double(7))
        // Apple's divide:by: on two integers is an integer division.
        #expect(try call("divide:by:", [.constant(7), .constant(2)]) == .int(3))
        #expect(try call("divide:by:", [.constant(7.0), .constant(2)]) == .double(3.5))
        #expect(try call("modulus:by:", [.constant(7), .constant(3)]) == .int(1))
        #expect(try call("modulus:by:", [.constant(-7), .constant(3)]) == .int(-1))
        #expect(try call("modulus:by:", [.constant(7.5), .constant(2)]) == .double(1.5))
        #expect(try call("modulus:by:", [.constant(.int(.min)), .constant(-1)]) == .int(0))
        #expect(error("modulus:by:", [.constant(7), .constant(0)]) == .evaluation("modulus:by: cannot divide 7 by zero"))
        #expect(try call("raise:toPower:", [.constant(2), .constant(0.5)]) == .double(2.0.squareRoot()))
        #expect(try call("sqrt:", [.constant(16)]) == .double(4))
        #expect(try call("log:", [.constant(1000)]) == .double(3))
        #expect(try call("ln:", [.constant(1)]) == .double(0))
        #expect(try call("exp:", [.constant(0)]) == .double(1))
        #expect(try call("ceiling:", [.constant(1.2)]) == .double(2))
        #expect(try call("ceiling:", [.constant(-1.2)]) == .double(-1))
        #expect(try call("floor:", [.constant(-1.2)]) == .double(-2))
        #expect(try call("trunc:", [.constant(-1.7)]) == .double(-1))
        #expect(try call("trunc:", [.constant(7)]) == .int(7))
        #expect(try call("abs:", [.constant(-3)]) == .int(3))
        #expect(try call("abs:", [.constant(-3.5)]) == .double(3.5))
        #expect(try call("abs:", [.constant(.null)]) == .null)
        #expect(try call("sqrt:", [.constant(.null)]) == .null)
        #expect(error("sqrt:", [.constant("x")]) == .evaluation("sqrt: needs a number, but was given a string"))
    }

    @Test func bitwise() throws {
        #expect(try call("bitwiseAnd:with:", [.constant(12), .constant(10)]) == .int(8))
        #expect(try call("bitwiseOr:with:", [.constant(12), .constant(10)]) == .int(14))
        #expect(try call("bitwiseXor:with:", [.constant(12), .constant(10)]) == .int(6))
        #expect(try call("leftshift:by:", [.constant(1), .constant(4)]) == .int(16))
        #expect(try call("rightshift:by:", [.constant(16), .constant(2)]) == .int(4))
        #expect(try call("leftshift:by:", [.constant(1), .constant(70)]) == .int(0))
        #expect(try call("onesComplement:", [.constant(0)]) == .int(-1))
        #expect(try call("bitwiseAnd:with:", [.constant(6.0), .constant(3)]) == .int(2))
        #expect(error("bitwiseAnd:with:", [.constant(1.5), .constant(3)])
            == .evaluation("bitwiseAnd:with: needs integers, but was given a double (1.5)"))
    }

    @Test func strings() throws {
        #expect(try call("lowercase:", [.constant("ÉCOLE Paris")]) == "école paris")
        #expect(try call("uppercase:", [.constant("straße")]) == "STRASSE")
        #expect(try call("lowercase:", [.constant(.null)]) == .null)
        #expect(error("uppercase:", [.constant(1)]) == .evaluation("uppercase: needs a string, but was given a integer"))
    }

    @Test func nowRandomAndNoindex() throws {
        let fixed = Date(timeIntervalSinceReferenceDate: 123)
        #expect(try call("now", [], options: EvaluationOptions(now: { fixed })) == .date(fixed))
        guard case .date = try call("now", []) else {
            Issue.record("now() must give a date")
            return
        }
        guard case .double(let random) = try call("random", []) else {
            Issue.record("random() must give a double")
            return
        }
        #expect(random >= 0 && random < 1)
        #expect(try call("random:", [.constant(1)]) == .int(0))
        #expect(error("random:", [.constant(0)]) == .evaluation("random: needs a positive upper bound, but was given 0"))
        #expect(try call("noindex:", [.constant("x")]) == "x")
    }

    @Test func distance() throws {
        let paris = Location(latitude: 48.8566, longitude: 2.3522)
        let london = Location(latitude: 51.5074, longitude: -0.1278)
        guard case .double(let meters) = try call("distanceToLocation:fromLocation:", [.constant(.location(paris)), .constant(.location(london))]) else {
            Issue.record("expected a double")
            return
        }
        #expect(meters.rounded() == 343_557)
        #expect(try call("distanceToLocation:fromLocation:", [.constant(.location(paris)), .constant(.location(paris))]) == .double(0))
        #expect(try call("distanceToLocation:fromLocation:", [.constant(.location(paris)), .constant(.null)]) == .null)
        #expect(try call("distanceToLocation:fromLocation:", [.constant("Paris"), .constant(.location(paris))]) == .null)
        // In a predicate: within 400 km.
        let near = EvaluationTestSupport.comparison(
            .function("distanceToLocation:fromLocation:", [.keyPath("location"), .constant(.location(paris))]),
            .lessThan, .constant(400_000))
        #expect(try near.evaluate(with: ["location": .location(london)] as [String: Value]) == true)
        #expect(try near.evaluate(with: [:] as [String: Value]) == false)
    }

    @Test func tokenize() throws {
        #expect(try call("tokenize:using:", [.constant("The Café, at NIGHT"), .constant(.null)]) == ["cafe", "night"])
        #expect(try call("tokenize:using:", [.constant(.null), .constant(.null)]) == .null)
        #expect(try call("tokenize:using:", [.constant(["a b", "Zoë"]), .constant(.null)]) == ["b", "zoe"])
    }

    @Test func unknownFunctionsAndArity() throws {
        #expect(EvaluationTestSupport.error { try CompiledExpression(.function("frobnicate:", [.constant(1)])) } == .evaluation(
            "there is no built-in function named frobnicate:; register it in EvaluationOptions.functions and call it with FUNCTION(...)"))
        #expect(EvaluationTestSupport.error { try CompiledExpression(.function("abs:", [])) }
            == .evaluation("abs: takes 1 argument, but is given 0"))
    }

    @Test func everyBuiltinFunctionIsImplemented() throws {
        for function in BuiltinFunction.all {
            let arguments = [FormatExpression](repeating: .constant(1), count: function.arity)
            let result = EvaluationTestSupport.error { try call(function.name, arguments) }
            #expect(result != .evaluation("the built-in function \(function.name) is not implemented"))
        }
    }
}
