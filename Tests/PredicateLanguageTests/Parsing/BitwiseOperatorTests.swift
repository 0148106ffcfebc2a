import Foundation
import Testing
@testable import PredicateLanguage

/// `&`, `|`, `^` (exclusive or), `<<`, `>>` on integers.
///
/// Apple's answers: daydreamboy/HelloProjects, HelloNSPredicate/Tests/Tests_NSPredicate.m
/// (test_Basic_Comparisons, XCTest on iOS) evaluates `1 << 3 == 8`, `8 >> 2 == 2`, `2 & 1 == 0`,
/// `2 | 1 == 3` and `2 ^ 1 == 3` to true: the operators bind tighter than comparisons, and `^`
/// is exclusive or, not a power. Another public XCTest that ran on Apple platforms (an
/// NSPredicateTests.swift asserting the parsed tree) shows `(key & 1) > 0`, `(key | 1) > 0` and
/// `(key ^ 1) > 0` parse to the functions bitwiseAnd:with:, bitwiseOr:with: and bitwiseXor:with:.
@Suite("Bitwise operators")
struct BitwiseOperatorTests {
    private func truth(_ format: String, _ object: Value = .object([:])) throws -> Bool {
        try FormatPredicate(format: format).evaluate(withValue: object)
    }

    @Test func applesExamplesHold() throws {
        for format in [
            "1 << 3 > 1", "1 << 3 == 8", "8 >> 2 == 2", "8 >> 1 == 4", "1 & 0 == 0", "2 & 1 == 0",
            "1 | 0 == 1", "2 | 1 == 3", "1 ^ 0 == 1", "1 ^ 1 == 0", "2 ^ 1 == 3",
        ] {
            #expect(try truth(format), "\(format)")
        }
    }

    @Test func operatorsParseToTheirFunctions() throws {
        let pairs: [(String, String)] = [
            ("&", "bitwiseAnd:with:"), ("|", "bitwiseOr:with:"), ("^", "bitwiseXor:with:"),
            ("<<", "leftshift:by:"), (">>", "rightshift:by:"),
        ]
        for (symbol, function) in pairs {
            let predicate = try FormatPredicate(format: "key \(symbol) 1 > 0")
            #expect(predicate == .comparison(ComparisonPredicate(
                .function(function, [.keyPath("key"), .constant(1)]), .greaterThan, .constant(0))))
            #expect(predicate.predicateFormat == "key \(symbol) 1 > 0")
            // The function spelling is the same tree, so it prints infix too.
            #expect(try FormatPredicate(format: "\(function)(key, 1) > 0") == predicate)
        }
    }

    @Test func theBriefsExamplePrintsInfix() throws {
        let predicate = try FormatPredicate(format: "stubOption & 3 == 3")
        #expect(predicate.predicateFormat == "stubOption & 3 == 3")
        #expect(try predicate.evaluate(withValue: ["stubOption": 7]) == true)
        #expect(try predicate.evaluate(withValue: ["stubOption": 5]) == false)
    }

    @Test func precedenceFollowsC() throws {
        // | loosest, then ^, then &, then the shifts, then + and -, then * and /.
        let expression = try FormatExpression(format: "a | b ^ c & d << e + f * g")
        let product = FormatExpression.arithmetic(.multiply, .keyPath("f"), .keyPath("g"))
        let sum = FormatExpression.arithmetic(.add, .keyPath("e"), product)
        let shift = FormatExpression.function("leftshift:by:", [.keyPath("d"), sum])
        let and = FormatExpression.function("bitwiseAnd:with:", [.keyPath("c"), shift])
        let exclusiveOr = FormatExpression.function("bitwiseXor:with:", [.keyPath("b"), and])
        #expect(expression == .function("bitwiseOr:with:", [.keyPath("a"), exclusiveOr]))
        // Every mixed operand prints parenthesized, so the text reads the same under any precedence.
        #expect(expression.expressionFormat == "a | (b ^ (c & (d << (e + (f * g)))))")
        #expect(try FormatExpression(format: expression.expressionFormat) == expression)
        #expect(try EvaluationTestSupport.value(try FormatExpression(format: "1 | 6 ^ 3 & 1 << 1 + 0 * 5")) == .int(1 | (6 ^ (3 & (1 << 1)))))
    }

    @Test func sameOperatorChainsAreLeftAssociative() throws {
        let chain = try FormatExpression(format: "a & b & c")
        #expect(chain == .function("bitwiseAnd:with:", [.function("bitwiseAnd:with:", [.keyPath("a"), .keyPath("b")]), .keyPath("c")]))
        #expect(chain.expressionFormat == "a & b & c")
        let right = FormatExpression.function("bitwiseAnd:with:", [.keyPath("a"), .function("bitwiseAnd:with:", [.keyPath("b"), .keyPath("c")])])
        #expect(right.expressionFormat == "a & (b & c)")
        #expect(try FormatExpression(format: right.expressionFormat) == right)
        #expect(try EvaluationTestSupport.value(try FormatExpression(format: "64 >> 2 >> 1")) == .int(8))
    }

    @Test func arithmeticAroundBitwiseIsParenthesized() throws {
        let sum = FormatExpression.arithmetic(.add, .function("bitwiseOr:with:", [.keyPath("a"), .constant(1)]), .constant(2))
        #expect(sum.expressionFormat == "(a | 1) + 2")
        #expect(try FormatExpression(format: sum.expressionFormat) == sum)
        let negated = FormatExpression.negation(.function("bitwiseAnd:with:", [.keyPath("a"), .keyPath("b")]))
        #expect(negated.expressionFormat == "-(a & b)")
        #expect(try FormatExpression(format: negated.expressionFormat) == negated)
        let negativeOperand = try FormatExpression(format: "-5 & 3")
        #expect(negativeOperand.expressionFormat == "(-5) & 3")
        #expect(try EvaluationTestSupport.value(negativeOperand) == .int(-5 & 3))
    }

    @Test func bitwiseOnNonIntegersIsATypedError() throws {
        let error = EvaluationTestSupport.error { try FormatPredicate(format: "a & 1 == 1").evaluate(withValue: ["a": 2.5]) }
        #expect(error == .evaluation("bitwiseAnd:with: needs integers, but was given a double (2.5)"))
        let text = EvaluationTestSupport.error { try FormatPredicate(format: "a << 1 == 1").evaluate(withValue: ["a": "x"]) }
        #expect(text == .evaluation(#"leftshift:by: needs integers, but was given a string ("x")"#))
    }

    @Test func doubleAmpersandAndDoubleBarStayLogical() throws {
        #expect(try FormatPredicate(format: "a == 1 && b == 2 || c == 3").predicateFormat == "(a == 1 AND b == 2) OR c == 3")
        #expect(try truth("3 & 1 == 1 && 4 | 1 == 5"))
    }
}
