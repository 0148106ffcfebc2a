import Foundation
import Testing
@testable import PredicateLanguage

/// Apple's `predicateFormat`, byte for byte. Each expectation names the public source that
/// shows Apple's output (tests that ran on Apple platforms), or the rule of this package where
/// Apple's own output cannot be parsed back.
///
/// Sources:
/// - [HelloProjects] daydreamboy/HelloProjects, HelloNSPredicate/Tests/Tests_NSPredicate.m (XCTest on iOS)
/// - [Syntax] developer.apple.com, "Predicate Format String Syntax" (Predicate Programming Guide)
@Suite("Apple's print form")
struct ApplePrintFormTests {
    /// Parses, checks the printed form, and checks that the printed form parses to an equal tree.
    private func expectPrint(
        _ format: String, _ arguments: [Value] = [], prints expected: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let predicate = try FormatPredicate(format: format, argumentArray: arguments)
        #expect(predicate.predicateFormat == expected, sourceLocation: sourceLocation)
        #expect(try FormatPredicate(format: predicate.predicateFormat) == predicate, "round trip", sourceLocation: sourceLocation)
    }

    @Test func formatArgumentsPrintAsConstantsAndKeysBare() throws {
        // [HelloProjects] test_syntax_dynamic_property_name, cases 1 and 2.
        try expectPrint("%@ like %@", ["firstName", "Adam"], prints: #""firstName" LIKE "Adam""#)
        try expectPrint("%K like %@", ["firstName", "Adam"], prints: #"firstName LIKE "Adam""#)
    }

    @Test func specifiersInsideQuotesStayLiteralText() throws {
        // [HelloProjects] test_syntax_dynamic_property_name, cases 3 and 4; [Syntax] "Single or
        // double quoting variables ... cause %@, %K, or $variable to be interpreted as a literal".
        try expectPrint("'%K' like '%@'", ["firstName", "Adam"], prints: #""%K" LIKE "%@""#)
        try expectPrint(#""%K" like "%@""#, ["firstName", "Adam"], prints: #""%K" LIKE "%@""#)
        try expectPrint("name == '$VARIABLE'", prints: #"name == "$VARIABLE""#)
    }

    @Test func operatorsPrintUpperCaseWithOptionsAttached() throws {
        // [HelloProjects] test_syntax_wildcard_star and _question_mark.
        try expectPrint("SELF like[c] 'prefix*suffix'", prints: #"SELF LIKE[c] "prefix*suffix""#)
        try expectPrint(#"SELF like[c] "prefix?suffix""#, prints: #"SELF LIKE[c] "prefix?suffix""#)
        try expectPrint("name beginswith[cd] 'a' AND name matches[c] 'b.*'", prints: #"name BEGINSWITH[cd] "a" AND name MATCHES[c] "b.*""#)
    }

    @Test func arithmeticPrintsWithSpacesAroundTheOperator() throws {
        // [HelloProjects] test_syntax_wildcard_star case 3: `SELF like[c] %@*%@`.
        try expectPrint("SELF like[c] %@*%@", ["prefix", "suffix"], prints: #"SELF LIKE[c] "prefix" * "suffix""#)
    }

    @Test func booleansPrintAsOneAndZero() throws {
        // [HelloProjects] test_syntax_boolean_values_YES_NO and _true_false.
        try expectPrint("isMale == %@", [true], prints: "isMale == 1")
        try expectPrint("isMale == %@", [false], prints: "isMale == 0")
        for (literal, printed) in [("YES", "1"), ("NO", "0"), ("yes", "1"), ("no", "0"), ("true", "1"), ("false", "0"), ("TRUE", "1"), ("FALSE", "0")] {
            try expectPrint("isMale == \(literal)", prints: "isMale == \(printed)")
        }
    }

    @Test func keyPathsCountAndIndexes() throws {
        // [HelloProjects] test_syntax_KVC and test_syntax_aggregate_operations_array.
        try expectPrint("a.@count == 3", prints: "a.@count == 3")
        try expectPrint("a.isMale == YES", prints: "a.isMale == 1")
        try expectPrint("a.firstName == 'Lee'", prints: #"a.firstName == "Lee""#)
        try expectPrint("a.firstName.length == 3", prints: "a.firstName.length == 3")
        try expectPrint("a[SIZE] == 3", prints: "a[SIZE] == 3")
        try expectPrint("a[FIRST] == 1", prints: "a[FIRST] == 1")
        try expectPrint("a[LAST] == 3", prints: "a[LAST] == 3")
        try expectPrint("a[1] == 2", prints: "a[1] == 2")
    }

    @Test func functionPrintsASpaceBeforeTheCommaAfterTheSelector() throws {
        // [HelloProjects] test_syntax_FUNCTION: `FUNCTION(a, "pow:", 3) == 8` prints
        // `FUNCTION(a, "pow:" , 3) == 8`, and with no arguments `FUNCTION("a", "uppercase") == "A"`.
        try expectPrint(#"FUNCTION(a, "pow:", 3) == 8"#, prints: #"FUNCTION(a, "pow:" , 3) == 8"#)
        try expectPrint("FUNCTION('a', 'uppercase') == 'A'", prints: #"FUNCTION("a", "uppercase") == "A""#)
        try expectPrint("FUNCTION(a, 'x:y:', 1, 2) == 3", prints: #"FUNCTION(a, "x:y:" , 1, 2) == 3"#)
    }

    @Test func variablesPrintAsDollarNames() throws {
        // [HelloProjects] test_substitutionVariables cases 1 and 2.
        try expectPrint("$a == 1", prints: "$a == 1")
    }

    @Test func substitutedVariablesPrintTheirValues() throws {
        // [HelloProjects] test_substitutionVariables case 3: `$a == 1` with a = "a" prints `"a" == 1`.
        let template = try FormatPredicate(format: "$a == 1")
        let bound = template.substituting(["a": "a"])
        #expect(bound.predicateFormat == #""a" == 1"#)
        #expect(try FormatPredicate(format: bound.predicateFormat) == bound)
    }

    @Test func stringsEscapeOnlyQuotesAndBackslashes() throws {
        // Apple escapes `"` and `\` and prints every other character as it is.
        let tab = FormatPredicate.comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .constant("x\ty")))
        #expect(tab.predicateFormat == "a == \"x\ty\"")
        #expect(try FormatPredicate(format: tab.predicateFormat) == tab)
        let quotes = FormatPredicate.comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .constant(#"say "hi" \o/"#)))
        #expect(quotes.predicateFormat == #"a == "say \"hi\" \\o/""#)
        #expect(try FormatPredicate(format: quotes.predicateFormat) == quotes)
        for control in ["\u{1}", "\u{7F}", "\u{85}", "\u{2028}", "é", "😀"] {
            let predicate = FormatPredicate.comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .constant(.string(control))))
            #expect(predicate.predicateFormat == "a == \"\(control)\"")
            #expect(try FormatPredicate(format: predicate.predicateFormat) == predicate)
        }
    }

    @Test func nulPrintsEscaped() throws {
        let predicate = FormatPredicate.comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .constant("x\u{0}y")))
        #expect(predicate.predicateFormat == #"a == "x\u0000y""#)
        #expect(try FormatPredicate(format: predicate.predicateFormat) == predicate)
    }

    @Test func lineBreaksInStringsPrintEscapedSoThatTheyParseBack() throws {
        // Apple prints a line break raw, but neither its parser nor this one reads a raw line
        // break inside quotes: \n and \r keep printing then parsing exact.
        let predicate = FormatPredicate.comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .constant("one\ntwo\r\nthree")))
        #expect(predicate.predicateFormat == #"a == "one\ntwo\r\nthree""#)
        #expect(try FormatPredicate(format: predicate.predicateFormat) == predicate)
    }

    @Test func notEqualPrintsAsBangEqualForBothSpellings() throws {
        try expectPrint("a <> 1 AND b != 2", prints: "a != 1 AND b != 2")
        try expectPrint("a = 1 AND b => 2 AND c =< 3", prints: "a == 1 AND b >= 2 AND c <= 3")
    }

    @Test func aggregatesDatesAndNestedCompounds() throws {
        try expectPrint("a IN %@", [["a", "b"]], prints: #"a IN {"a", "b"}"#)
        try expectPrint("a == %@", [.date(Date(timeIntervalSinceReferenceDate: 736_214_400.25))], prints: #"a == CAST(736214400.250000, "NSDate")"#)
        try expectPrint("a == 1 OR (b == 2 AND c == 3)", prints: "a == 1 OR (b == 2 AND c == 3)")
        try expectPrint("(a == 1 OR b == 2) AND c == 3", prints: "(a == 1 OR b == 2) AND c == 3")
        try expectPrint("NOT (a == 1 AND b == 2)", prints: "NOT (a == 1 AND b == 2)")
    }

    @Test func modifiersBetweenSubqueryAndTernary() throws {
        try expectPrint("any tags == 'a'", prints: #"ANY tags == "a""#)
        try expectPrint("some tags == 'a'", prints: #"ANY tags == "a""#)
        try expectPrint("all tags == 'a'", prints: #"ALL tags == "a""#)
        try expectPrint("none tags == 'a'", prints: #"NOT ANY tags == "a""#)
        try expectPrint("a between {1, 3}", prints: "a BETWEEN {1, 3}")
        try expectPrint("subquery(items, $x, $x.price > 1).@count > 0", prints: "SUBQUERY(items, $x, $x.price > 1).@count > 0")
        try expectPrint("ternary(a > 1, 'x', 'y') == 'x'", prints: #"TERNARY(a > 1, "x", "y") == "x""#)
    }

    @Test func reservedWordsNegativeNumbersAndDoubles() throws {
        try expectPrint("#size == 1 AND #in.#first == 2", prints: "#size == 1 AND #in.#first == 2")
        try expectPrint("a == -5 AND b == -a AND c == 2.5 AND d == 1e-7", prints: "a == -5 AND b == -a AND c == 2.5 AND d == 1e-07")
        try expectPrint("a == 3.0", prints: "a == 3")
    }
}
