import Foundation
import Testing
import PredicateLanguage

/// One test per input the fuzzer (Scripts/fuzz.sh) found to break a property, with the exact
/// input it found (minimized) and the exact correct outcome.
@Suite("Hardening: fuzz regressions")
struct FuzzRegressionTests {
    /// Parses, checks the tree, and checks that the printed form is exact and parses back to the same tree.
    private func expectRoundTrip(
        _ input: String, _ expected: FormatPredicate, printed: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let predicate = try FormatPredicate(format: input)
        #expect(predicate == expected, sourceLocation: sourceLocation)
        #expect(predicate.predicateFormat == printed, sourceLocation: sourceLocation)
        #expect(try FormatPredicate(format: printed) == expected, sourceLocation: sourceLocation)
    }

    /// Fuzz finding 1 (crash-35a73c93): `#1` is the key "1", but printed bare it read back as the number 1.
    /// Fixed in KeyPathFormatting: a key path component starting with a digit prints with `#`.
    @Test func keyStartingWithADigitKeepsItsHash() throws {
        try expectRoundTrip(
            "a-@count=#1",
            .comparison(ComparisonPredicate(
                .arithmetic(.subtract, .keyPath("a"), .keyPath("@count")), .equalTo, .keyPath("1"))),
            printed: "a - @count == #1")
        try expectRoundTrip(
            "address.#2nd == 'x'",
            .comparison(ComparisonPredicate(.keyPath("address.2nd"), .equalTo, .constant("x"))),
            printed: #"address.#2nd == "x""#)
    }

    /// Fuzz finding 2 (crash-31b4a7af): under AddressSanitizer the printed form failed with "nesting too deep
    /// for the thread's stack (24 levels)": the stack headroom check read the address of a local, which ASan
    /// keeps on its heap-allocated fake stack. Fixed in StackLimit/Parser: an address outside the thread's
    /// stack bounds is not trusted, and the 200-level limit alone applies.
    @Test func fourteenNestedNegationsRoundTrip() throws {
        let input = "ENDSWIT=<HF0000000088---------------distanceT---oL"
        var negated = FormatExpression.keyPath("distanceT")
        for _ in 0..<14 { negated = .negation(negated) }
        let left = FormatExpression.arithmetic(
            .subtract,
            .arithmetic(.subtract, .keyPath("HF0000000088"), negated),
            .negation(.negation(.keyPath("oL"))))
        try expectRoundTrip(
            input,
            .comparison(ComparisonPredicate(.keyPath("ENDSWIT"), .lessThanOrEqualTo, left)),
            printed: "ENDSWIT <= (HF0000000088 - --------------distanceT) - --oL")
    }

    /// The printed form of finding 2 nests the negations in parentheses 14 deep; the parser must
    /// take it on a small thread stack too (the headroom check reads real stack addresses there).
    @Test func nestedNegationsParseOnASmallThreadStack() async throws {
        let printed = "ENDSWIT <= HF0000000088 - -(-(-(-(-(-(-(-(-(-(-(-(-(-distanceT))))))))))))) - -(-oL)"
        let expected = try FormatPredicate(format: printed)
        let outcome = ParsedOnThread()
        let thread = Thread { outcome.set((try? FormatPredicate(format: printed)) == expected) }
        thread.stackSize = 512 * 1024
        thread.start()
        while outcome.value == nil { try await Task.sleep(nanoseconds: 1_000_000) }
        #expect(outcome.value == true)
    }

    /// Fuzz finding 3 (crash-26e4df1e): `--0` is the negation of the constant 0 (the inner minus folds into
    /// the literal), printed `-0`, which read back as the constant 0. Fixed in FormatExpression+Printing:
    /// a negated number constant prints in parentheses, `-(0)`.
    @Test func negatedNumberConstantsKeepTheirNegation() throws {
        var negated = FormatExpression.keyPath("NE")
        for _ in 0..<11 { negated = .negation(negated) }
        try expectRoundTrip(
            "NM+NEEEEEEEEEEEE=--0------------NE",
            .comparison(ComparisonPredicate(
                .arithmetic(.add, .keyPath("NM"), .keyPath("NEEEEEEEEEEEE")), .equalTo,
                .arithmetic(.subtract, .negation(.constant(0)), negated))),
            printed: "NM + NEEEEEEEEEEEE == -(0) - -----------NE")
        try expectRoundTrip(
            "a == --2.5", .comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .negation(.constant(-2.5)))),
            printed: "a == --2.5")
        try expectRoundTrip(
            "a == -(2.5)", .comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .negation(.constant(2.5)))),
            printed: "a == -(2.5)")
        try expectRoundTrip(
            "a == -(TRUE)", .comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .negation(.constant(true)))),
            printed: "a == -(1)")
        #expect(try FormatPredicate(format: "a == --0").evaluate(withValue: ["a": 0]) == true)
    }

    /// Fuzz finding 4 (crash-74fda82d): `yes.nt` is the key nt of the constant true, printed `1.nt`,
    /// which does not parse (`1.` reads as a number). Fixed in FormatExpression+Printing: a number
    /// constant before `.key` prints in parentheses, `(1).nt`.
    @Test func keyOfANumberConstantPrintsInParentheses() throws {
        let input = "NM+NEEEEEEEEEEEE=-yes.nt------N-0160176---------------NE"
        var negatedNE = FormatExpression.keyPath("NE")
        for _ in 0..<14 { negatedNE = .negation(negatedNE) }
        var negatedN = FormatExpression.keyPath("N")
        for _ in 0..<5 { negatedN = .negation(negatedN) }
        let right = FormatExpression.arithmetic(
            .subtract,
            .arithmetic(.subtract, .arithmetic(.subtract, .negation(.member(.constant(true), "nt")), negatedN), .constant(160_176)),
            negatedNE)
        try expectRoundTrip(
            input,
            .comparison(ComparisonPredicate(.arithmetic(.add, .keyPath("NM"), .keyPath("NEEEEEEEEEEEE")), .equalTo, right)),
            printed: "NM + NEEEEEEEEEEEE == ((-(1).nt - -----N) - 160176) - --------------NE")
        try expectRoundTrip(
            "(2.5).x == 1", .comparison(ComparisonPredicate(.member(.constant(2.5), "x"), .equalTo, .constant(1))),
            printed: "(2.5).x == 1")
    }

    /// Fuzz finding 5 (crash-a3a121f5): 124 minuses in a row parse within the 200-level nesting limit, but
    /// each printed as `-(` (two levels), so the printed form passed the limit and did not parse. Fixed in
    /// FormatExpression+Printing: a negation of a negation or of a power prints without parentheses.
    @Test func longRunsOfMinusesPrintWithinTheNestingLimit() throws {
        let input = "00000000*092>001e1||00*00**" + String(repeating: "-", count: 124) + "00015**name=09"
        var negated = FormatExpression.negation(.arithmetic(.power, .constant(15), .keyPath("name")))
        for _ in 0..<123 { negated = .negation(negated) }
        try expectRoundTrip(
            input,
            .or([
                .comparison(ComparisonPredicate(.arithmetic(.multiply, .constant(0), .constant(92)), .greaterThan, .constant(10.0))),
                .comparison(ComparisonPredicate(
                    .arithmetic(.multiply, .constant(0), .arithmetic(.power, .constant(0), negated)), .equalTo, .constant(9))),
            ]),
            printed: "0 * 92 > 10 OR 0 * (0 ** " + String(repeating: "-", count: 124) + "15 ** name) == 9")
    }

    /// Fuzz findings 6, 7 and 8 (crash-4f656b19, crash-59a8e8b8, crash-92d47d7b): the same cause as finding 5,
    /// runs of 110 to 140 minuses whose printed form passed the nesting limit.
    @Test(arguments: [
        "yevvvvvvvvlyse/nil.wwwwwvvv" + String(repeating: "-", count: 118)
            + "vvvvlyses.nvvvvvvvvvvvvvlyse/nil.wwwwwvvvvvv/nil.w>=a.cast",
        "cBL*SIZEb*b*N8RangeReZEb" + String(repeating: "-", count: 114) + "b*F*bbNDSWITHl *b*b**L**ENDSWITHl =R",
    ])
    func longRunsOfMinusesRoundTrip(input: String) throws {
        let predicate = try FormatPredicate(format: input)
        let printed = predicate.predicateFormat
        #expect(!printed.contains("-("))
        #expect(printed.contains(String(repeating: "-", count: 110)))
        #expect(try FormatPredicate(format: printed) == predicate)
    }

    /// Fuzz finding 9 (crash-7872aa2f, session 2): 150 `!` in a row inside an `OR` parse within the
    /// 200-level nesting limit, but each negation of a negation printed as `(NOT (` (two levels), so
    /// the printed form passed the limit and did not parse. Fixed in FormatPredicate+Printing: a
    /// negation of a negation prints as `NOT NOT p`.
    @Test func longChainsOfNegationsPrintWithinTheNestingLimit() throws {
        let input = "a == 1 || " + String(repeating: "!", count: 150) + " b <= 10 || c > 2"
        var negated = FormatPredicate.comparison(ComparisonPredicate(.keyPath("b"), .lessThanOrEqualTo, .constant(10)))
        for _ in 0..<150 { negated = .not(negated) }
        try expectRoundTrip(
            input,
            .or([
                .comparison(ComparisonPredicate(.keyPath("a"), .equalTo, .constant(1))),
                negated,
                .comparison(ComparisonPredicate(.keyPath("c"), .greaterThan, .constant(2))),
            ]),
            printed: "a == 1 OR (" + String(repeating: "NOT ", count: 150) + "b <= 10) OR c > 2")
    }

    /// The exact input of finding 9: it now prints within the nesting limit and reads back equal.
    @Test func theInputOfFindingNineRoundTrips() throws {
        let input = "0000000>01e2||000000*o*0900000000000*09*0000>01e2||000000*o*0900000000000*09*0092<=01e1||00909*0000>01e2[n]||000000*o*0900000000000*0900000000000*09*0000>01e2||000000*o*0900000000000*09.0092<=01e1||00909*0000>01e2[n]||009*0092<=01e1||0092<=01e1||" + String(repeating: "!", count: 83) + " " + String(repeating: "!", count: 71) + "0*.2<=01e1||0*.00015*0900*00  >a0"
        let predicate = try FormatPredicate(format: input)
        let printed = predicate.predicateFormat
        #expect(!printed.contains("(NOT ("))
        #expect(try FormatPredicate(format: printed) == predicate)
    }
}

/// A boolean set by one thread and read by another.
private final class ParsedOnThread: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Bool?

    func set(_ value: Bool) { lock.withLock { stored = value } }
    var value: Bool? { lock.withLock { stored } }
}
