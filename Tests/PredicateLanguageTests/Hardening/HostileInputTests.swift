import Foundation
import Testing
import PredicateLanguage

/// Input written to hurt: SQL fragments, quotes, NUL bytes, overlong strings, deep nesting,
/// huge IN lists and regular expressions that backtrack catastrophically. Each case asserts
/// the exact result or the exact error, never only "doesn't crash".
@Suite("Hardening: hostile input to the language")
struct HostileInputTests {
    // MARK: - Helpers

    private func syntaxError(_ format: String, _ arguments: [Value] = []) -> SyntaxError? {
        do {
            _ = try FormatPredicate(format: format, argumentArray: arguments)
            return nil
        } catch FormatPredicateError.syntax(let error) {
            return error
        } catch {
            return nil
        }
    }

    private func evaluationMessage(_ predicate: FormatPredicate, on object: Value, options: EvaluationOptions = .init()) -> String? {
        do {
            _ = try CompiledPredicate(predicate, options: options).evaluate(value: object)
            return nil
        } catch FormatPredicateError.evaluation(let message) {
            return message
        } catch {
            return "unexpected error: \(error)"
        }
    }

    private func comparison(_ key: String, _ operator: ComparisonOperator, _ value: Value, options: ComparisonOptions = [])
        -> FormatPredicate
    {
        .comparison(ComparisonPredicate(.keyPath(key), `operator`, .constant(value), options: options))
    }

    private let nestingExpected = "at most 200 levels of nesting"
    private let nestingFound = "nesting deeper than 200 levels"

    // MARK: - SQL fragments

    @Test func sqlInAStringLiteralIsAnOrdinaryString() throws {
        let injected = "x'; DROP TABLE t; --"
        let predicate = try FormatPredicate(format: #"name == "x'; DROP TABLE t; --""#)
        #expect(predicate == comparison("name", .equalTo, .string(injected)))
        #expect(predicate.predicateFormat == #"name == "x'; DROP TABLE t; --""#)
        #expect(try FormatPredicate(format: predicate.predicateFormat) == predicate)
        #expect(try predicate.evaluate(withValue: ["name": .string(injected)]) == true)
        #expect(try predicate.evaluate(withValue: ["name": "x"]) == false)
    }

    @Test func sqlInASingleQuotedLiteralWithEscapedQuotes() throws {
        let predicate = try FormatPredicate(format: #"name == 'a\' OR \'1\'=\'1'"#)
        #expect(predicate == comparison("name", .equalTo, "a' OR '1'='1"))
        #expect(predicate.predicateFormat == #"name == "a' OR '1'='1""#)
        #expect(try predicate.evaluate(withValue: ["name": "a"]) == false)
        #expect(try predicate.evaluate(withValue: ["name": "a' OR '1'='1"]) == true)
    }

    @Test func sqlThroughAnObjectArgumentIsQuotedWhenPrinted() throws {
        let injected = #"'; DELETE FROM records WHERE "1"="1"; --"#
        let predicate = try FormatPredicate(format: "name == %@", argumentArray: [.string(injected)])
        #expect(predicate == comparison("name", .equalTo, .string(injected)))
        #expect(predicate.predicateFormat == #"name == "'; DELETE FROM records WHERE \"1\"=\"1\"; --""#)
        #expect(try FormatPredicate(format: predicate.predicateFormat) == predicate)
        #expect(try predicate.evaluate(withValue: ["name": .string(injected)]) == true)
    }

    @Test func sqlThroughAKeyArgumentIsAnOrdinaryKey() throws {
        // %K takes the string as a key, whatever it holds; the key prints bare, as NSPredicate prints it.
        let key = "a; DROP TABLE"
        let predicate = try FormatPredicate(format: "%K == 1", argumentArray: [.string(key)])
        #expect(predicate == comparison(key, .equalTo, 1))
        #expect(predicate.predicateFormat == "a; DROP TABLE == 1")
        #expect(try predicate.evaluate(withValue: [key: 1]) == true)
        #expect(try predicate.evaluate(withValue: ["a": 1]) == false)
        // The bare form is not a predicate: it fails to parse at the ';' instead of meaning something else.
        let error = syntaxError(predicate.predicateFormat)
        #expect(error?.offset == 1)
    }

    @Test func aKeyArgumentCannotInjectOperators() throws {
        let key = "name\" OR 1=1 --"
        let predicate = try FormatPredicate(format: "%K BEGINSWITH %@", argumentArray: [.string(key), "x"])
        #expect(predicate == comparison(key, .beginsWith, "x"))
        #expect(try predicate.evaluate(withValue: ["name": "xyz"]) == false)
        #expect(try predicate.evaluate(withValue: [key: "xyz"]) == true)
    }

    // MARK: - Quotes and NUL bytes

    @Test func quotesOfEveryKindRoundTrip() throws {
        let predicate = try FormatPredicate(format: #"a == "it's \"quoted\" and \\ back" OR b == 'say "hi"'"#)
        #expect(predicate == .or([comparison("a", .equalTo, #"it's "quoted" and \ back"#), comparison("b", .equalTo, #"say "hi""#)]))
        #expect(predicate.predicateFormat == #"a == "it's \"quoted\" and \\ back" OR b == "say \"hi\"""#)
        #expect(try FormatPredicate(format: predicate.predicateFormat) == predicate)
    }

    @Test func curlyQuotesAreNotStringDelimiters() {
        let error = syntaxError("name == ‘x’")
        #expect(error?.offset == 8)
        #expect(error?.expected == #"a straight quote (' or ") around a string"#)
    }

    @Test func nulBytesInsideStringsAreKeptAndPrintedEscaped() throws {
        let raw = try FormatPredicate(format: "name == 'a\u{0}b'")
        let escaped = try FormatPredicate(format: #"name == "a\0b""#)
        #expect(raw == comparison("name", .equalTo, "a\u{0}b"))
        #expect(escaped == raw)
        #expect(raw.predicateFormat == #"name == "a\u0000b""#)
        #expect(try FormatPredicate(format: raw.predicateFormat) == raw)
        #expect(try raw.evaluate(withValue: ["name": "a\u{0}b"]) == true)
        #expect(try raw.evaluate(withValue: ["name": "ab"]) == false)
        #expect(try raw.evaluate(withValue: ["name": "a"]) == false)
    }

    @Test func nulBytesThroughArgumentsAndKeys() throws {
        let predicate = try FormatPredicate(format: "%K CONTAINS %@", argumentArray: ["k\u{0}ey", "\u{0}"])
        #expect(predicate == comparison("k\u{0}ey", .contains, "\u{0}"))
        #expect(predicate.predicateFormat == "k\u{0}ey CONTAINS \"\\u0000\"")
        #expect(try predicate.evaluate(withValue: ["k\u{0}ey": "x\u{0}y"]) == true)
        #expect(try predicate.evaluate(withValue: ["k\u{0}ey": "xy"]) == false)
    }

    @Test func aNulByteInTheFormatItselfIsASyntaxError() {
        let afterValue = syntaxError("name == 1\u{0} OR b == 2")
        #expect(afterValue?.offset == 9)
        let inKey = syntaxError("na\u{0}me == 1")
        #expect(inKey?.offset == 2)
        let alone = syntaxError("\u{0}")
        #expect(alone?.offset == 0)
    }

    // MARK: - Overlong input

    @Test func aTenMegabyteStringLiteralParsesPrintsAndEvaluates() throws {
        let long = String(repeating: "0123456789", count: 1_048_576)
        #expect(long.utf8.count == 10_485_760)
        let predicate = try FormatPredicate(format: "name == '\(long)'")
        #expect(predicate == comparison("name", .equalTo, .string(long)))
        #expect(predicate.predicateFormat.utf8.count == 10_485_760 + 10)
        #expect(try predicate.evaluate(withValue: ["name": .string(long)]) == true)
        #expect(try predicate.evaluate(withValue: ["name": .string(long + "x")]) == false)
        let unterminated = syntaxError("name == '\(long)")
        #expect(unterminated?.offset == 8)
    }

    @Test func aTenMegabyteKeyPathParses() throws {
        let key = String(repeating: "k", count: 10_485_760)
        let predicate = try FormatPredicate(format: "\(key) == 1")
        #expect(predicate == comparison(key, .equalTo, 1))
        #expect(try predicate.evaluate(withValue: [key: 1]) == true)
    }

    // MARK: - Deep nesting

    @Test func deepParenthesesFailWithTheNestingError() {
        let error = syntaxError(String(repeating: "(", count: 1_000_000) + "a == 1" + String(repeating: ")", count: 1_000_000))
        #expect(error?.expected == nestingExpected)
        #expect(error?.found == nestingFound)
        #expect(error?.offset == 200)
    }

    @Test func deepNotFailsWithTheNestingError() {
        let error = syntaxError(String(repeating: "NOT ", count: 1_000_000) + "a == 1")
        #expect(error?.expected == nestingExpected)
        #expect(error?.offset == 800)
    }

    @Test func deepSubqueriesFailWithTheNestingError() {
        let depth = 10_000
        let format = String(repeating: "SUBQUERY(x, $v, ", count: depth) + "$v == 1"
            + String(repeating: ").@count > 0", count: depth)
        let error = syntaxError("a == 1 AND " + format)
        #expect(error?.expected == nestingExpected)
        #expect(error?.found == nestingFound)
        // The SUBQUERY keyword of level 201 opens the 201st level.
        #expect(error?.offset == 11 + 16 * 200 + 8)
    }

    @Test func subqueriesNestedAHundredDeepWork() throws {
        // Each SUBQUERY level takes two nesting levels (the call and its predicate).
        let depth = 99
        let format = String(repeating: "SUBQUERY(x, $v, ", count: depth) + "$v == 1"
            + String(repeating: ").@count > 0", count: depth)
        let predicate = try FormatPredicate(format: format)
        #expect(try FormatPredicate(format: predicate.predicateFormat) == predicate)
        // One member per level: 99 nested loops of one pass each. (Two members would take 2^99 passes:
        // the step limit stops them, see EvaluationStepLimitTests.)
        #expect(try predicate.evaluate(withValue: ["x": [1]]) == true)
        #expect(try predicate.evaluate(withValue: ["x": []]) == false)
    }

    @Test func deepFunctionArgumentsFailWithTheNestingError() {
        let error = syntaxError("a == " + String(repeating: "max:({1, ", count: 100_000) + "1")
        #expect(error?.expected == nestingExpected)
        // Each max:({...}) is two levels (the call and the aggregate): the 101st max: fails at its '('.
        #expect(error?.offset == 5 + 9 * 100 + 4)
        let custom = syntaxError("a == " + String(repeating: "FUNCTION(SELF, 'f', ", count: 100_000) + "1")
        #expect(custom?.expected == nestingExpected)
        #expect(custom?.offset == 5 + 20 * 200 + 8)
    }

    @Test func deepNestingOnASmallThreadStackIsStillAnError() async throws {
        // A secondary thread with 256 KB of stack: the parser must stop with a syntax error before it
        // overflows. Which limit it meets first depends on frame sizes (debug or release build): the
        // thread's stack (a debug build, at 31 levels) or the 200 levels.
        let format = String(repeating: "(", count: 199) + "a == " + String(repeating: "abs:(", count: 199) + "1"
        let outcome = ThreadOutcome()
        let thread = Thread {
            outcome.set(nestingLimitMet(format))
        }
        thread.stackSize = 256 * 1024
        thread.start()
        while !outcome.isSet { try await Task.sleep(nanoseconds: 1_000_000) }
        #expect(outcome.value == "less deeply nested input" || outcome.value == nestingExpected)
    }

    // MARK: - Huge IN lists

    @Test func aMillionMembersThroughAnArgument() throws {
        let members = Value.list((0..<1_000_000).map { .int(Int64($0)) })
        let predicate = try FormatPredicate(format: "id IN %@", argumentArray: [members])
        let compiled = try CompiledPredicate(predicate)
        #expect(try compiled.evaluate(value: ["id": 999_999]) == true)
        #expect(try compiled.evaluate(value: ["id": 0]) == true)
        #expect(try compiled.evaluate(value: ["id": 1_000_000]) == false)
        #expect(try compiled.evaluate(value: ["id": 500_000.0]) == true)
        #expect(try compiled.evaluate(value: ["id": "5"]) == false)
    }

    @Test func aMillionMembersWrittenLiterally() throws {
        let format = "id IN {" + (0..<1_000_000).map(String.init).joined(separator: ", ") + "}"
        let predicate = try FormatPredicate(format: format)
        guard case .comparison(let comparison) = predicate, case .constant(.list(let list)) = comparison.right else {
            Issue.record("not a comparison with a constant list: \(predicate)")
            return
        }
        #expect(list.count == 1_000_000)
        #expect(list.last == .int(999_999))
        #expect(predicate.predicateFormat == format)
        let compiled = try CompiledPredicate(predicate)
        #expect(try compiled.evaluate(value: ["id": 765_432]) == true)
        #expect(try compiled.evaluate(value: ["id": -1]) == false)
    }

    // MARK: - Regular expressions

    private func regexTimeout(_ pattern: String, on subject: String) -> String? {
        var options = EvaluationOptions()
        options.regularExpressionLimits = RegularExpressionLimits(workUnits: 1_000)
        return evaluationMessage(comparison("name", .matches, .string(pattern)), on: ["name": .string(subject)], options: options)
    }

    @Test func nestedQuantifiersAreStoppedWithAClearError() {
        let subject = String(repeating: "a", count: 5_000) + "!"
        let message = regexTimeout("(a+)+$", on: subject)
        // A long subject fills ICU's backtracking stack before the work limit: also a typed error.
        #expect(message?.hasPrefix(#"regular expression "(a+)+$" needed more than its "#) == true, "\(message ?? "no error")")
        #expect(message?.contains("to match a string of 5001 UTF-16 code units") == true, "\(message ?? "no error")")
    }

    @Test func overlappingAlternativesAreStoppedWithAClearError() {
        let subject = String(repeating: "a", count: 5_000) + "!"
        let message = regexTimeout("(a|aa)+$", on: subject)
        #expect(message?.hasPrefix(#"regular expression "(a|aa)+$" needed more than its "#) == true, "\(message ?? "no error")")
    }

    @Test func repeatedWildcardGroupsAreStoppedWithAClearError() {
        let subject = String(repeating: "a", count: 5_000) + "b"
        let message = regexTimeout("(.*a){20}", on: subject)
        #expect(message?.hasPrefix(#"regular expression "(.*a){20}" needed more than its work limit of 1000 units"#) == true, "\(message ?? "no error")")
    }

    @Test func backtrackingPatternsStillAnswerOnShortStrings() throws {
        let predicate = comparison("name", .matches, "(a+)+$")
        #expect(try predicate.evaluate(withValue: ["name": "aaaa"]) == true)
        #expect(try predicate.evaluate(withValue: ["name": "aaab"]) == false)
    }

    @Test func invalidRegularExpressionsNameThePattern() {
        for pattern in ["(unclosed", "[z-a]", "a{2,1}", "*", #"\"#, "(?<name"] {
            let message = evaluationMessage(comparison("name", .matches, .string(pattern)), on: ["name": "x"])
            #expect(message?.hasPrefix("invalid regular expression \"\(pattern)\" in MATCHES: ") == true, "\(pattern): \(message ?? "no error")")
        }
    }

    @Test func patternsCannotEscapeTheWholeStringAnchor() throws {
        // Alternation, comments and quoting inside the pattern must not defeat "the whole string matches".
        #expect(try comparison("name", .matches, "a|b").evaluate(withValue: ["name": "ab"]) == false)
        #expect(try comparison("name", .matches, "a|b").evaluate(withValue: ["name": "b"]) == true)
        #expect(try comparison("name", .matches, "(?x)a # comment").evaluate(withValue: ["name": "ab"]) == false)
        #expect(try comparison("name", .matches, "(?x)a # comment").evaluate(withValue: ["name": "a"]) == true)
        #expect(try comparison("name", .matches, #"\Qa"#).evaluate(withValue: ["name": "ab"]) == false)
        #expect(try comparison("name", .matches, #"\Qa"#).evaluate(withValue: ["name": "a"]) == true)
    }
}

/// What the parser expected where it stopped, "parsed" when the format parses, or the other error.
private func nestingLimitMet(_ format: String) -> String {
    do {
        _ = try FormatPredicate(format: format)
        return "parsed"
    } catch FormatPredicateError.syntax(let error) {
        return error.expected
    } catch {
        return "\(error)"
    }
}

/// A string set by one thread and read by another.
private final class ThreadOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?

    func set(_ value: String) { lock.withLock { stored = value } }
    var isSet: Bool { lock.withLock { stored != nil } }
    var value: String? { lock.withLock { stored } }
}
