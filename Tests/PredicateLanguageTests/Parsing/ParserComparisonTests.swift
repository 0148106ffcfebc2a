import Testing
@testable import PredicateLanguage

private func compare(
    _ left: FormatExpression, _ comparisonOperator: ComparisonOperator, _ right: FormatExpression,
    modifier: ComparisonModifier = .direct, options: ComparisonOptions = []
) -> FormatPredicate {
    .comparison(ComparisonPredicate(left, comparisonOperator, right, modifier: modifier, options: options))
}

private func key(_ path: String) -> FormatExpression { .keyPath(path) }

@Suite("Parser: comparisons and connectives")
struct ParserComparisonTests {
    @Test(arguments: [
        ("=", ComparisonOperator.equalTo), ("==", .equalTo),
        (">=", .greaterThanOrEqualTo), ("=>", .greaterThanOrEqualTo),
        ("<=", .lessThanOrEqualTo), ("=<", .lessThanOrEqualTo),
        (">", .greaterThan), ("<", .lessThan),
        ("!=", .notEqualTo), ("<>", .notEqualTo),
        ("BEGINSWITH", .beginsWith), ("beginswith", .beginsWith),
        ("ENDSWITH", .endsWith), ("CONTAINS", .contains), ("contains", .contains),
        ("LIKE", .like), ("Like", .like), ("MATCHES", .matches), ("IN", .in), ("in", .in),
    ])
    func everyOperatorSpelling(spelling: String, expected: ComparisonOperator) throws {
        let parsed = try FormatPredicate(format: "a \(spelling) 1")
        #expect(parsed == compare(key("a"), expected, .constant(1)))
        let tight = try FormatPredicate(format: "a\(spelling.first!.isLetter ? " \(spelling) " : spelling)1")
        #expect(tight == compare(key("a"), expected, .constant(1)))
    }

    @Test func between() throws {
        #expect(
            try FormatPredicate(format: "quantity BETWEEN {1, 3}")
                == compare(key("quantity"), .between, .constant([1, 3])))
        #expect(
            try FormatPredicate(format: "quantity between { low, 3 }")
                == compare(key("quantity"), .between, .aggregate([key("low"), .constant(3)])))
    }

    static let optionSpellings: [(String, ComparisonOptions)] = [
        ("[c]", ComparisonOptions.caseInsensitive),
        ("[d]", .diacriticInsensitive),
        ("[cd]", [.caseInsensitive, .diacriticInsensitive]),
        ("[DC]", [.caseInsensitive, .diacriticInsensitive]),
        ("[n]", .normalized),
        ("[l]", .localeSensitive),
        ("[cdnl]", [.caseInsensitive, .diacriticInsensitive, .normalized, .localeSensitive]),
        ("[ c ]", .caseInsensitive),
    ]

    @Test(arguments: optionSpellings)
    func options(suffix: String, expected: ComparisonOptions) throws {
        #expect(
            try FormatPredicate(format: "name LIKE\(suffix) 'a*'")
                == compare(key("name"), .like, .constant("a*"), options: expected))
        #expect(
            try FormatPredicate(format: "name ==\(suffix) 'a'")
                == compare(key("name"), .equalTo, .constant("a"), options: expected))
        #expect(
            try FormatPredicate(format: "name IN\(suffix) {'a'}")
                == compare(key("name"), .in, .constant(["a"]), options: expected))
    }

    @Test func modifiers() throws {
        #expect(
            try FormatPredicate(format: "ANY tags == 'a'")
                == compare(key("tags"), .equalTo, .constant("a"), modifier: .any))
        #expect(
            try FormatPredicate(format: "some tags == 'a'")
                == compare(key("tags"), .equalTo, .constant("a"), modifier: .any))
        #expect(
            try FormatPredicate(format: "ALL scores > 3")
                == compare(key("scores"), .greaterThan, .constant(3), modifier: .all))
        #expect(
            try FormatPredicate(format: "NONE tags BEGINSWITH[c] 'x'")
                == .not(compare(key("tags"), .beginsWith, .constant("x"), modifier: .any, options: .caseInsensitive)))
    }

    @Test func connectivesAndPrecedence() throws {
        let a = compare(key("a"), .equalTo, .constant(1))
        let b = compare(key("b"), .equalTo, .constant(2))
        let c = compare(key("c"), .equalTo, .constant(3))
        #expect(try FormatPredicate(format: "a == 1 AND b == 2 AND c == 3") == .and([a, b, c]))
        #expect(try FormatPredicate(format: "a == 1 && b == 2 and c == 3") == .and([a, b, c]))
        #expect(try FormatPredicate(format: "a == 1 OR b == 2 || c == 3") == .or([a, b, c]))
        #expect(try FormatPredicate(format: "(a == 1 AND b == 2) AND c == 3") == .and([.and([a, b]), c]))
        #expect(try FormatPredicate(format: "a == 1 AND (b == 2 AND c == 3)") == .and([a, .and([b, c])]))
        #expect(try FormatPredicate(format: "a == 1 OR b == 2 AND c == 3") == .or([a, .and([b, c])]))
        #expect(try FormatPredicate(format: "a == 1 AND b == 2 OR c == 3") == .or([.and([a, b]), c]))
        #expect(try FormatPredicate(format: "(a == 1 OR b == 2) AND c == 3") == .and([.or([a, b]), c]))
        #expect(try FormatPredicate(format: "NOT a == 1 AND b == 2") == .and([.not(a), b]))
        #expect(try FormatPredicate(format: "!a == 1 OR NOT (b == 2 OR c == 3)") == .or([.not(a), .not(.or([b, c]))]))
        #expect(try FormatPredicate(format: "not not a == 1") == .not(.not(a)))
        #expect(try FormatPredicate(format: "((a == 1))") == a)
        #expect(try FormatPredicate(format: "((a == 1) OR (b == 2))") == .or([a, b]))
    }

    @Test func constantPredicates() throws {
        #expect(try FormatPredicate(format: "TRUEPREDICATE") == .constant(true))
        #expect(try FormatPredicate(format: "falsepredicate") == .constant(false))
        #expect(
            try FormatPredicate(format: "TRUEPREDICATE AND NOT FALSEPREDICATE")
                == .and([.constant(true), .not(.constant(false))]))
    }

    @Test func parenthesisAmbiguity() throws {
        let sum = FormatExpression.arithmetic(.add, key("a"), .constant(1))
        #expect(try FormatPredicate(format: "(a + 1) > 2") == compare(sum, .greaterThan, .constant(2)))
        #expect(try FormatPredicate(format: "(a > 1)") == compare(key("a"), .greaterThan, .constant(1)))
        #expect(
            try FormatPredicate(format: "((a + 1) * 2 > 2 AND b == 1)")
                == .and([
                    compare(.arithmetic(.multiply, sum, .constant(2)), .greaterThan, .constant(2)),
                    compare(key("b"), .equalTo, .constant(1)),
                ]))
        #expect(try FormatPredicate(format: "(a) == (1)") == compare(key("a"), .equalTo, .constant(1)))
        #expect(try FormatPredicate(format: "2 < (a)") == compare(.constant(2), .lessThan, key("a")))
        #expect(
            try FormatPredicate(format: "((((a)))) + 1 > 2") == compare(sum, .greaterThan, .constant(2)))
        #expect(
            try FormatPredicate(format: "quantity BETWEEN (1, 3)")
                == compare(key("quantity"), .between, .constant([1, 3])))
        #expect(
            try FormatPredicate(format: "x IN (a, 2)")
                == compare(key("x"), .in, .aggregate([key("a"), .constant(2)])))
    }

    @Test func keywordsAreCaseInsensitive() throws {
        #expect(
            try FormatPredicate(format: "any tags beginswith[C] 'a' aNd NOT b == nil oR c == TrUe")
                == .or([
                    .and([
                        compare(key("tags"), .beginsWith, .constant("a"), modifier: .any, options: .caseInsensitive),
                        .not(compare(key("b"), .equalTo, .constant(.null))),
                    ]),
                    compare(key("c"), .equalTo, .constant(true)),
                ]))
    }
}
