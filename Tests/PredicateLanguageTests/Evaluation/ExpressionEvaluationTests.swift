import Foundation
import Testing
@testable import PredicateLanguage

@Suite("Evaluation: expressions")
struct ExpressionEvaluationTests {
    func value(_ expression: FormatExpression, on record: [String: Value] = [:], variables: [String: Value] = [:]) throws -> Value {
        try EvaluationTestSupport.value(expression, on: record, variables: variables)
    }

    func error(_ expression: FormatExpression, on record: [String: Value] = [:]) -> PredicateLanguage.FormatPredicateError? {
        EvaluationTestSupport.error { try value(expression, on: record) }
    }

    @Test func integerArithmeticStaysExact() throws {
        #expect(try value(.arithmetic(.add, .constant(2), .constant(3))) == .int(5))
        #expect(try value(.arithmetic(.subtract, .constant(2), .constant(3))) == .int(-1))
        #expect(try value(.arithmetic(.multiply, .constant(4), .constant(3))) == .int(12))
        #expect(try value(.arithmetic(.add, .constant(true), .constant(1))) == .int(2))
        #expect(try value(.arithmetic(.add, .constant(.int(.max)), .constant(1))) == .double(9_223_372_036_854_775_808.0))
        #expect(try value(.arithmetic(.multiply, .constant(.int(.max)), .constant(2))) == .double(18_446_744_073_709_551_614.0))
    }

    // Apple's NSExpression divides two integers in integers (1/2 is 0); a double operand divides in doubles.
    @Test func divisionOfIntegersIsIntegerAndPowerIsDouble() throws {
        #expect(try value(.arithmetic(.divide, .constant(3), .constant(2))) == .int(1))
        #expect(try value(.arithmetic(.divide, .constant(-7), .constant(2))) == .int(-3))
        #expect(try value(.arithmetic(.divide, .constant(.int(.min)), .constant(-1))) == .double(9_223_372_036_854_775_808.0))
        if case .double(let third) = try value(.arithmetic(.divide, .constant(1.0), .constant(3))) {
            #expect(third == 1.0 / 3.0)
        } else {
            Issue.record("expected a double")
        }
        #expect(try value(.arithmetic(.divide, .constant(1.0), .constant(0))) == .double(.infinity))
        #expect(error(.arithmetic(.divide, .keyPath("a"), .constant(0)), on: ["a": 1])
            == .evaluation("integer division by zero in a / 0"))
        #expect(try value(.arithmetic(.power, .constant(2), .constant(10))) == .double(1024))
        #expect(try value(.arithmetic(.add, .constant(0.5), .constant(1))) == .double(1.5))
    }

    @Test func nullAndNonNumbersInArithmetic() throws {
        // A missing value raises, as Apple's NSExpression does (it once gave nil).
        #expect(error(.arithmetic(.add, .keyPath("missing"), .constant(1))) == .evaluation("arithmetic on a missing value (nil) in missing + 1"))
        #expect(error(.negation(.keyPath("missing"))) == .evaluation("arithmetic on a missing value (nil) in -missing"))
        #expect(error(.arithmetic(.add, .constant("a"), .constant(1)))
            == .evaluation("cannot apply '+' to a string (\"a\") and a integer (1)"))
        #expect(error(.negation(.constant("a"))) == .evaluation("cannot negate a string (\"a\")"))
    }

    @Test func negation() throws {
        #expect(try value(.negation(.keyPath("n")), on: ["n": 5]) == .int(-5))
        #expect(try value(.negation(.keyPath("n")), on: ["n": 2.5]) == .double(-2.5))
        #expect(try value(.negation(.keyPath("n")), on: ["n": .int(.min)]) == .double(9_223_372_036_854_775_808.0))
    }

    @Test func dateArithmetic() throws {
        let start = Date(timeIntervalSinceReferenceDate: 1_000)
        #expect(try value(.arithmetic(.add, .constant(.date(start)), .constant(60))) == .date(Date(timeIntervalSinceReferenceDate: 1_060)))
        #expect(try value(.arithmetic(.add, .constant(60), .constant(.date(start)))) == .date(Date(timeIntervalSinceReferenceDate: 1_060)))
        #expect(try value(.arithmetic(.subtract, .constant(.date(start)), .constant(0.5))) == .date(Date(timeIntervalSinceReferenceDate: 999.5)))
        #expect(try value(.arithmetic(.subtract, .constant(.date(start.addingTimeInterval(90))), .constant(.date(start)))) == .double(90))
    }

    @Test func variables() throws {
        #expect(try value(.variable("limit"), variables: ["limit": 10]) == 10)
        #expect(error(.variable("limit")) == .unboundVariable("limit"))
        let predicate = EvaluationTestSupport.comparison(.keyPath("population"), .greaterThan, .variable("limit"))
        let compiled = try CompiledPredicate(predicate)
        #expect(try compiled.evaluate(["population": 100] as [String: Value], variables: ["limit": 50]) == true)
        #expect(try compiled.evaluate(["population": 100] as [String: Value], variables: ["limit": 500]) == false)
        #expect(EvaluationTestSupport.error { try compiled.evaluate(["population": 100] as [String: Value]) }
            == .unboundVariable("limit"))
        #expect(try value(.member(.variable("city"), "address.zip"), variables: ["city": ["address": ["zip": "75001"]]]) == "75001")
    }

    @Test func subquery() throws {
        let record: [String: Value] = [
            "minimum": 3,
            "items": [["name": "pen", "price": 2], ["name": "ink", "price": 4], ["name": "pad", "price": 5]],
        ]
        let expensive = FormatExpression.subquery(
            collection: .keyPath("items"), variable: "item",
            predicate: EvaluationTestSupport.comparison(.member(.variable("item"), "price"), .greaterThan, .keyPath("minimum")))
        #expect(try value(expensive, on: record) == [["name": "ink", "price": 4], ["name": "pad", "price": 5]])
        #expect(try value(.index(expensive, .size), on: record) == 2)
        let predicate = EvaluationTestSupport.comparison(.keyPath("x"), .equalTo, .constant(1))
        #expect(try value(.subquery(collection: .keyPath("missing"), variable: "m", predicate: predicate), on: record) == [])
        // SELF inside: the member itself through the variable.
        let short = FormatExpression.subquery(
            collection: .constant(["a", "bb", "ccc"]), variable: "s",
            predicate: EvaluationTestSupport.comparison(.variable("s"), .like, .constant("??*")))
        #expect(try value(short) == ["bb", "ccc"])
        // The subquery's variable does not leak out.
        #expect(error(.aggregate([short, .variable("s")])) == .unboundVariable("s"))
        // `SUBQUERY(...).@count > 1` as a predicate.
        let counted = EvaluationTestSupport.comparison(.member(expensive, "@count"), .greaterThan, .constant(1))
        #expect(try counted.evaluate(with: record) == true)
    }

    @Test func ternary() throws {
        let expression = FormatExpression.ternary(
            EvaluationTestSupport.comparison(.keyPath("n"), .greaterThan, .constant(0)), .constant("positive"), .constant("other"))
        #expect(try value(expression, on: ["n": 5]) == "positive")
        #expect(try value(expression, on: ["n": -5]) == "other")
        #expect(try value(expression, on: [:]) == "other")
    }

    @Test func cast() throws {
        #expect(try value(.cast(.keyPath("v"), "NSString"), on: ["v": 42]) == "42")
        #expect(try value(.cast(.keyPath("v"), "NSString"), on: ["v": 2.0]) == "2")
        #expect(try value(.cast(.keyPath("v"), "NSString"), on: ["v": 2.5]) == "2.5")
        #expect(try value(.cast(.keyPath("v"), "NSString"), on: ["v": true]) == "1")
        #expect(try value(.cast(.keyPath("v"), "NSString"), on: ["v": "x"]) == "x")
        #expect(try value(.cast(.keyPath("v"), "NSNumber"), on: ["v": "42"]) == .int(42))
        #expect(try value(.cast(.keyPath("v"), "NSNumber"), on: ["v": " 2.5 "]) == .double(2.5))
        #expect(try value(.cast(.keyPath("v"), "NSNumber"), on: ["v": "abc"]) == .null)
        #expect(try value(.cast(.keyPath("v"), "NSNumber"), on: ["v": false]) == .int(0))
        #expect(try value(.cast(.keyPath("v"), "NSNumber"), on: ["v": .date(Date(timeIntervalSinceReferenceDate: 5))]) == .double(5))
        #expect(try value(.cast(.keyPath("v"), "NSDate"), on: ["v": 0]) == .date(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(try value(.cast(.keyPath("v"), "NSDate"), on: ["v": 86_400.5]) == .date(Date(timeIntervalSinceReferenceDate: 86_400.5)))
        #expect(try value(.cast(.keyPath("v"), "NSDate"), on: ["v": "x"]) == .null)
        #expect(try value(.cast(.keyPath("v"), "NSData"), on: ["v": "hi"]) == .bytes(Data([0x68, 0x69])))
        #expect(try value(.cast(.keyPath("missing"), "NSString")) == .null)
        #expect(EvaluationTestSupport.error { try CompiledExpression(.cast(.keyPath("v"), "NSURL")) } == .evaluation(
            "CAST to \"NSURL\" is not supported; use one of NSString, NSNumber, NSDate, NSData, CLLocation, CKReference"))
    }

    @Test func customFunctions() throws {
        var options = EvaluationOptions()
        options.functions["describe"] = { arguments in
            .string(arguments.map { $0.stringValue ?? "?" }.joined(separator: "+"))
        }
        options.functions["fails"] = { _ in throw CocoaError(.featureUnsupported) }
        let call = FormatExpression.customFunction(target: .keyPath("name"), name: "describe", arguments: [.constant("b"), .constant(1)])
        #expect(try CompiledExpression(call, options: options).value(for: ["name": "a"] as [String: Value]) == "a+b+?")
        let unknown = FormatExpression.customFunction(target: .evaluatedObject, name: "missing", arguments: [])
        #expect(EvaluationTestSupport.error { try CompiledExpression(unknown, options: options).value(for: [:] as [String: Value]) }
            == .evaluation("no function named \"missing\" is registered; add it to EvaluationOptions.functions"))
        let failing = FormatExpression.customFunction(target: .evaluatedObject, name: "fails", arguments: [])
        let failure = EvaluationTestSupport.error { try CompiledExpression(failing, options: options).value(for: [:] as [String: Value]) }
        guard case .evaluation(let message)? = failure else {
            Issue.record("expected an evaluation error")
            return
        }
        #expect(message.hasPrefix("the function \"fails\" failed: "))
    }

    @Test func aggregatesAndSelf() throws {
        #expect(try value(.aggregate([.keyPath("a"), .constant(2)]), on: ["a": 1]) == [1, 2])
        #expect(try value(.evaluatedObject, on: ["a": 1]) == ["a": 1])
        #expect(try CompiledExpression(.evaluatedObject).value(forValue: "x") == "x")
        let selfPredicate = EvaluationTestSupport.comparison(.evaluatedObject, .beginsWith, .constant("ap"))
        #expect(try selfPredicate.evaluate(withValue: "apple") == true)
        #expect(try selfPredicate.evaluate(withValue: 5) == false)
    }

    @Test func compoundPredicates() throws {
        let record: [String: Value] = ["a": 1, "b": 2]
        let a = EvaluationTestSupport.comparison(.keyPath("a"), .equalTo, .constant(1))
        let b = EvaluationTestSupport.comparison(.keyPath("b"), .equalTo, .constant(3))
        #expect(try FormatPredicate.and([]).evaluate(with: record) == true)
        #expect(try FormatPredicate.or([]).evaluate(with: record) == false)
        #expect(try FormatPredicate.and([a, b]).evaluate(with: record) == false)
        #expect(try FormatPredicate.or([a, b]).evaluate(with: record) == true)
        #expect(try FormatPredicate.or([b, b, a]).evaluate(with: record) == true)
        #expect(try FormatPredicate.and([a, a, a, b]).evaluate(with: record) == false)
        #expect(try FormatPredicate.not(b).evaluate(with: record) == true)
        #expect(try FormatPredicate.truePredicate.evaluate(with: record) == true)
        #expect(try FormatPredicate.falsePredicate.evaluate(with: record) == false)
        // Short circuit: the unbound variable on the right is never read.
        let unbound = EvaluationTestSupport.comparison(.keyPath("a"), .equalTo, .variable("never"))
        #expect(try FormatPredicate.or([a, unbound]).evaluate(with: record) == true)
        #expect(try FormatPredicate.and([b, unbound]).evaluate(with: record) == false)
    }
}
