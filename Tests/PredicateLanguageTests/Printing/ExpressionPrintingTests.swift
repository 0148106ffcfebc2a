import Foundation
import Testing
@testable import PredicateLanguage

@Suite("Expression printing")
struct ExpressionPrintingTests {
    private func expectPrints(_ cases: [(FormatExpression, String)], sourceLocation: SourceLocation = #_sourceLocation) {
        for (expression, expected) in cases {
            #expect(expression.expressionFormat == expected, sourceLocation: sourceLocation)
            #expect(expression.description == expected, sourceLocation: sourceLocation)
        }
    }

    let a = FormatExpression.keyPath("a")
    let b = FormatExpression.keyPath("b")
    let c = FormatExpression.keyPath("c")

    @Test func atomsAndKeyPaths() {
        expectPrints([
            (.evaluatedObject, "SELF"),
            (.variable("NAME"), "$NAME"),
            (.keyPath("name"), "name"),
            (.keyPath("address.city"), "address.city"),
            (.keyPath("tags.@count"), "tags.@count"),
            (.keyPath("items.@sum.price"), "items.@sum.price"),
            (.keyPath("size"), "#size"),
            (.keyPath("order.in.Last"), "order.#in.#Last"),
            (.keyPath("self"), "#self"),
            (.keyPath("yes.nil.cast"), "#yes.#nil.#cast"),
            (.keyPath("android.notes"), "android.notes"),
        ])
    }

    @Test func membersAndIndexes() {
        expectPrints([
            (.member(.variable("city"), "name"), "$city.name"),
            (.member(.variable("x"), "first.value"), "$x.#first.value"),
            (.member(.index(.keyPath("items"), .first), "price"), "items[FIRST].price"),
            (.member(.arithmetic(.add, a, b), "c"), "(a + b).c"),
            (.member(.negation(a), "c"), "(-a).c"),
            (.index(.keyPath("a"), .expression(.constant(0))), "a[0]"),
            (.index(.keyPath("a"), .first), "a[FIRST]"),
            (.index(.keyPath("a"), .last), "a[LAST]"),
            (.index(.keyPath("a"), .size), "a[SIZE]"),
            (.index(.keyPath("a"), .expression(.constant("key"))), #"a["key"]"#),
            (.index(.index(.keyPath("grid"), .expression(.constant(1))), .expression(.variable("i"))), "grid[1][$i]"),
            (.index(.arithmetic(.subtract, a, b), .last), "(a - b)[LAST]"),
        ])
    }

    @Test func functionsAndSpecialForms() {
        let cupertino = Value.location(Location(latitude: 37.331913, longitude: -122.030210))
        expectPrints([
            (.function("now", []), "now()"),
            (.function("abs:", [.keyPath("x")]), "abs:(x)"),
            (.function("raise:toPower:", [a, .constant(2)]), "raise:toPower:(a, 2)"),
            (.function("distanceToLocation:fromLocation:", [.keyPath("location"), .constant(cupertino)]),
             #"distanceToLocation:fromLocation:(location, CAST({37.331913, -122.03021}, "CLLocation"))"#),
            (.function("sum:", [.aggregate([a, .constant(1)])]), "sum:({a, 1})"),
            (.aggregate([a, .variable("v"), .constant("s")]), #"{a, $v, "s"}"#),
            (.customFunction(target: a, name: "reversed", arguments: []), #"FUNCTION(a, "reversed")"#),
            (.customFunction(target: .evaluatedObject, name: "distance:to:", arguments: [b, .constant(1)]),
             #"FUNCTION(SELF, "distance:to:" , b, 1)"#),   // Apple's space before the comma
            (.ternary(Tree.equals("a", 1), .constant("one"), .constant("other")), #"TERNARY(a == 1, "one", "other")"#),
            (.ternary(.or([Tree.equals("a", 1), Tree.equals("b", 2)]), a, b), "TERNARY(a == 1 OR b == 2, a, b)"),
            (.cast(.keyPath("stamp"), "NSDate"), #"CAST(stamp, "NSDate")"#),
            (.subquery(collection: .keyPath("items"), variable: "x",
                       predicate: .and([Tree.compare(.member(.variable("x"), "price"), .greaterThan, .constant(10)),
                                        Tree.compare(.member(.variable("x"), "qty"), .lessThan, .constant(2))])),
             "SUBQUERY(items, $x, $x.price > 10 AND $x.qty < 2)"),
            (.member(.subquery(collection: .keyPath("items"), variable: "x",
                                predicate: Tree.compare(.member(.variable("x"), "price"), .greaterThan, .constant(10))), "@count"),
             "SUBQUERY(items, $x, $x.price > 10).@count"),
        ])
    }

    // Apple's predicateFormat parenthesizes every arithmetic operand of arithmetic:
    // `$single LIKE ("b\"" + $b) + $c` (the NSComparisonPredicate description seen on Apple's platforms).
    @Test func arithmeticPrecedence() {
        expectPrints([
            (.arithmetic(.add, a, b), "a + b"),
            (.arithmetic(.add, a, .arithmetic(.multiply, b, c)), "a + (b * c)"),
            (.arithmetic(.multiply, .arithmetic(.add, a, b), c), "(a + b) * c"),
            (.arithmetic(.multiply, a, .arithmetic(.add, b, c)), "a * (b + c)"),
            (.arithmetic(.add, .arithmetic(.add, a, b), c), "(a + b) + c"),
            (.arithmetic(.add, a, .arithmetic(.add, b, c)), "a + (b + c)"),
            (.arithmetic(.subtract, .arithmetic(.subtract, a, b), c), "(a - b) - c"),
            (.arithmetic(.subtract, a, .arithmetic(.subtract, b, c)), "a - (b - c)"),
            (.arithmetic(.subtract, a, .arithmetic(.add, b, c)), "a - (b + c)"),
            (.arithmetic(.divide, .arithmetic(.multiply, a, b), c), "(a * b) / c"),
            (.arithmetic(.divide, a, .arithmetic(.multiply, b, c)), "a / (b * c)"),
            (.arithmetic(.multiply, a, .arithmetic(.multiply, b, c)), "a * (b * c)"),
            (.arithmetic(.power, a, .arithmetic(.power, b, c)), "a ** (b ** c)"),
            (.arithmetic(.power, .arithmetic(.power, a, b), c), "(a ** b) ** c"),
            (.arithmetic(.multiply, .arithmetic(.power, a, .constant(2)), b), "(a ** 2) * b"),
            (.arithmetic(.power, .arithmetic(.multiply, a, b), c), "(a * b) ** c"),
            (.arithmetic(.add, .constant(1), .constant(-2)), "1 + -2"),
            (.arithmetic(.power, .negation(a), .constant(2)), "(-a) ** 2"),
            (.arithmetic(.power, .constant(-2), .constant(2)), "(-2) ** 2"),
            (.arithmetic(.multiply, .negation(a), b), "-a * b"),
        ])
    }

    @Test func negation() {
        expectPrints([
            (.negation(a), "-a"),
            (.negation(.keyPath("a.b")), "-a.b"),
            (.negation(.variable("x")), "-$x"),
            (.negation(.function("abs:", [a])), "-abs:(a)"),
            (.negation(.arithmetic(.add, a, b)), "-(a + b)"),
            (.negation(.negation(a)), "--a"),
            (.negation(.constant(-3)), "--3"),
            (.negation(.constant(3)), "-(3)"),
            (.negation(.arithmetic(.power, a, b)), "-a ** b"),
            (.negation(.arithmetic(.power, .constant(2), b)), "-2 ** b"),
            (.arithmetic(.subtract, a, .negation(b)), "a - -b"),
        ])
    }

    @Test func expressionsInsideComparisons() {
        let predicate = Tree.compare(.arithmetic(.multiply, .keyPath("population"), .constant(2)), .greaterThan, .constant(100_000))
        #expect(predicate.predicateFormat == "population * 2 > 100000")
        let between = Tree.compare(a, .between, .aggregate([.variable("LOW"), .function("now", [])]))
        #expect(between.predicateFormat == "a BETWEEN {$LOW, now()}")
        let date = Tree.compare(.keyPath("created"), .greaterThan, .constant(.date(Date(timeIntervalSinceReferenceDate: 736_214_400))))
        #expect(date.predicateFormat == #"created > CAST(736214400.000000, "NSDate")"#)
        let comparison = ComparisonPredicate(.keyPath("in"), .in, .constant([1, 2]))
        #expect(comparison.description == "#in IN {1, 2}")
    }
}

@Suite("Expression printing: Apple's parentheses")
struct AppleArithmeticParenthesesTests {
    // Apple's predicateFormat of `$single LIKE $a + $b + $c` with a = "b\"" is `$single LIKE ("b\"" + $b) + $c`,
    // and after substituting b = "x", c = "y", `$single LIKE ("b\"" + "x") + "y"` (seen on Apple's platforms).
    @Test func nestedArithmeticPrintsInParenthesesAndRoundTrips() throws {
        let predicate = try FormatPredicate(format: "$single LIKE %@ + $b + $c", "b\"")
        #expect(predicate.predicateFormat == #"$single LIKE ("b\"" + $b) + $c"#)
        #expect(try FormatPredicate(format: predicate.predicateFormat) == predicate)
        let substituted = predicate.substituting(["b": "x", "c": "y"])
        #expect(substituted.predicateFormat == #"$single LIKE ("b\"" + "x") + "y""#)
        #expect(try FormatPredicate(format: substituted.predicateFormat) == substituted)
        let mixed = try FormatPredicate(format: "a + b * c - d / e == -f ** 2")
        #expect(mixed.predicateFormat == "(a + (b * c)) - (d / e) == -f ** 2")
        #expect(try FormatPredicate(format: mixed.predicateFormat) == mixed)
    }
}
