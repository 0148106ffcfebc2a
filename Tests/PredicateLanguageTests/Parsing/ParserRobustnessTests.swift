import Testing
@testable import PredicateLanguage
import TestSupport

private func syntaxError(_ format: String) -> SyntaxError? {
    do {
        _ = try FormatPredicate(format: format)
        return nil
    } catch let error as FormatPredicateError {
        if case .syntax(let syntax) = error { return syntax }
        return nil
    } catch {
        return nil
    }
}

@Suite("Parser: robustness")
struct ParserRobustnessTests {
    private let nestingMessage = ("at most 200 levels of nesting", "nesting deeper than 200 levels")

    private func expectNestingError(_ format: String, at offset: Int) {
        let error = syntaxError(format)
        #expect(error?.expected == nestingMessage.0)
        #expect(error?.found == nestingMessage.1)
        #expect(error?.offset == offset)
    }

    @Test func deepParenthesesAreRejected() {
        expectNestingError(String(repeating: "(", count: 10_000), at: 200)
        expectNestingError(String(repeating: "(", count: 10_000) + "a == 1" + String(repeating: ")", count: 10_000), at: 200)
    }

    @Test func deepNotAndBangAreRejected() {
        expectNestingError(String(repeating: "NOT ", count: 10_000) + "a == 1", at: 800)
        expectNestingError(String(repeating: "!", count: 10_000) + "a == 1", at: 200)
    }

    @Test func deepUnaryMinusIsRejected() {
        expectNestingError("a == " + String(repeating: "-", count: 10_000) + "1", at: 205)
        expectNestingError(String(repeating: "-", count: 10_000) + "a > 0", at: 200)
    }

    @Test func deepAggregatesAndCallsAreRejected() {
        expectNestingError("a IN " + String(repeating: "{", count: 10_000), at: 205)
        expectNestingError("a == " + String(repeating: "abs:(", count: 10_000), at: 1_009)
        expectNestingError("a == " + String(repeating: "x[", count: 10_000), at: 406)
        expectNestingError("a == " + String(repeating: "2 ** ", count: 10_000) + "2", at: 1_007)
        expectNestingError("a == " + String(repeating: "b + ", count: 10_000) + "1", at: 807)
    }

    @Test func twoHundredLevelsAreAccepted() throws {
        let comparison = FormatPredicate.comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .constant(1)))
        let parenthesized = String(repeating: "(", count: 200) + "a == 1" + String(repeating: ")", count: 200)
        #expect(try FormatPredicate(format: parenthesized) == comparison)
        var negated = comparison
        for _ in 0..<200 { negated = .not(negated) }
        #expect(try FormatPredicate(format: String(repeating: "NOT ", count: 200) + "a == 1") == negated)
        var call = FormatExpression.constant(1)
        for _ in 0..<200 { call = .function("abs:", [call]) }
        #expect(
            try FormatPredicate(format: "a == " + String(repeating: "abs:(", count: 200) + "1" + String(repeating: ")", count: 200))
                == .comparison(ComparisonPredicate(.keyPath("a"), .equalTo, call)))
    }

    @Test func twoHundredMixedLevelsInExpressionsAreAccepted() throws {
        // Parentheses, aggregates, calls, subscripts and minus, 40 rounds of 5 levels each.
        let opening = String(repeating: "(-{abs:(x[", count: 40)
        let closing = String(repeating: "])})", count: 40)
        var expected = FormatExpression.constant(1)
        for _ in 0..<40 {
            expected = .negation(.aggregate([.function("abs:", [.index(.keyPath("x"), .expression(expected))])]))
        }
        #expect(
            try FormatPredicate(format: "a == \(opening)1\(closing)")
                == .comparison(ComparisonPredicate(.keyPath("a"), .equalTo, expected)))
        expectNestingError("a == " + opening + "(1", at: 405)
    }

    @Test func megabyteStringsParse() throws {
        let plain = String(repeating: "abcdefghij", count: 100_000)
        #expect(
            try FormatPredicate(format: "name == '\(plain)'")
                == .comparison(ComparisonPredicate(.keyPath("name"), .equalTo, .constant(.string(plain)))))
        let escaped = String(repeating: #"ab\"cd\n"#, count: 100_000)
        let decoded = String(repeating: "ab\"cd\n", count: 100_000)
        #expect(
            try FormatPredicate(format: "name == \"\(escaped)\"")
                == .comparison(ComparisonPredicate(.keyPath("name"), .equalTo, .constant(.string(decoded)))))
    }

    @Test func hugeInListParses() throws {
        let members = (0..<100_000).map(String.init).joined(separator: ", ")
        let expected = FormatPredicate.comparison(
            ComparisonPredicate(.keyPath("id"), .in, .constant(.list((0..<100_000).map { .int(Int64($0)) }))))
        #expect(try FormatPredicate(format: "id IN {\(members)}") == expected)
    }

    @Test func longConjunctionsStayFlat() throws {
        let format = (0..<10_000).map { "a == \($0)" }.joined(separator: " AND ")
        guard case .and(let members) = try FormatPredicate(format: format) else {
            Issue.record("not an AND")
            return
        }
        #expect(members.count == 10_000)
        #expect(members.last == .comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .constant(9_999))))
    }

    static let fragments: [String] = [
        "a", "b.c", "1", "2.5", "-3", "0x1F", "'s'", "\"t\"", "'", "\"", "\\", "(", ")", "{", "}", "[", "]", ",", ".",
        "==", "=", "<", ">", "<=", "=>", "!=", "<>", "!", "&&", "||", "&", "|", ":", ":=", "~",
        "AND", "OR", "NOT", "and", "ANY", "ALL", "NONE", "SOME", "IN", "BETWEEN", "CONTAINS", "LIKE", "MATCHES",
        "BEGINSWITH", "[cd]", "[x]", "+", "-", "*", "/", "**", "$x", "$", "@count", "@", "@sum", "#IN", "#",
        "SELF", "nil", "TRUE", "NO", "TRUEPREDICATE", "FALSEPREDICATE", "abs:", "raise:toPower:", "now", "foo:",
        "SUBQUERY", "FUNCTION", "CAST", "TERNARY", "FIRST", "LAST", "SIZE", "'NSDate'", "é", "😀", "‘", "”", "日本",
        "\\u{41}", "'\\u00e9'", "'\\q'", "1e5", ".5", "e\u{301}", "\t", "\n",
    ]

    @Test func randomInputsParseOrFailWithAValidOffset() {
        var generator = SplitMix64(seed: 0x5EED_2024)
        var parsed = 0
        var failed = 0
        for _ in 0..<4_000 {
            let count = Int.random(in: 1...16, using: &generator)
            var format = ""
            for _ in 0..<count {
                format += Self.fragments.randomElement(using: &generator)!
                if Bool.random(using: &generator) { format += " " }
            }
            do {
                _ = try FormatPredicate(format: format)
                parsed += 1
            } catch let error as FormatPredicateError {
                guard case .syntax(let syntax) = error else {
                    Issue.record("not a syntax error for \(format): \(error)")
                    continue
                }
                #expect(syntax.offset >= 0 && syntax.offset <= format.count, "offset \(syntax.offset) for \(format)")
                #expect(!syntax.description.isEmpty)
                failed += 1
            } catch {
                Issue.record("unexpected error for \(format): \(error)")
            }
        }
        #expect(parsed + failed == 4_000)
    }

    @Test func randomScalarsNeverCrash() {
        var generator = SplitMix64(seed: 42)
        let scalars: [Unicode.Scalar] = Array("()[]{}'\"\\%$@#.,=<>!&|:+-*/ 0123456789abcdeEx_ANDOR\u{301}é😀‘".unicodeScalars)
        for _ in 0..<2_000 {
            var format = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...24, using: &generator) {
                format.append(scalars.randomElement(using: &generator)!)
            }
            let text = String(format)
            do {
                _ = try FormatPredicate(format: text)
            } catch let error as FormatPredicateError {
                switch error {
                case .syntax(let syntax):
                    #expect(syntax.offset >= 0 && syntax.offset <= text.count, "offset \(syntax.offset) for \(text)")
                case .argument:
                    break  // a '%' specifier without an argument
                default:
                    Issue.record("unexpected error for \(text): \(error)")
                }
            } catch {
                Issue.record("unexpected error for \(text): \(error)")
            }
        }
    }
}
