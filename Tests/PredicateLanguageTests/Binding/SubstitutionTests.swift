import Testing
@testable import PredicateLanguage

@Suite("Binding: variable substitution")
struct SubstitutionTests {
    @Test func replacesPresentVariablesAndKeepsAbsentOnes() throws {
        let template = try FormatPredicate(format: "age > $minimum AND name == $name")
        #expect(
            template.substituting(["minimum": 18])
                == .and([
                    .comparison(ComparisonPredicate(.keyPath("age"), .greaterThan, .constant(18))),
                    .comparison(ComparisonPredicate(.keyPath("name"), .equalTo, .variable("name"))),
                ]))
        #expect(template.substituting([:]) == template)
        #expect(template.variableNames == ["minimum", "name"])
        #expect(template.substituting(["minimum": 1, "name": "x"]).variableNames == [])
    }

    @Test func substitutesEverywhereButASubqueryOwnVariable() throws {
        let template = try FormatPredicate(
            format: """
                NOT ($a.b + -$c)[$i] IN {$d, 1} OR TERNARY($e > 1, abs:($f), FUNCTION($g, 'f:', $h)) == CAST($k, 'NSDate') \
                OR SUBQUERY($list, $x, $x.price > $limit AND $x == $y).@count > 0
                """)
        #expect(template.variableNames == ["a", "c", "i", "d", "e", "f", "g", "h", "k", "list", "limit", "y"])
        let values: [String: Value] = [
            "a": 1, "c": 2, "i": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "k": 9, "list": [1], "limit": 10,
            "y": 11, "x": 99,
        ]
        let bound = template.substituting(values)
        #expect(bound.variableNames == [])
        let expected = FormatPredicate.or([
            .not(.comparison(ComparisonPredicate(
                .index(.arithmetic(.add, .member(.constant(1), "b"), .negation(.constant(2))), .expression(.constant(3))),
                // An aggregate whose members all became constants folds into a constant list, as parsing does.
                .in, .constant([4, 1])))),
            .comparison(ComparisonPredicate(
                .ternary(
                    .comparison(ComparisonPredicate(.constant(5), .greaterThan, .constant(1))),
                    .function("abs:", [.constant(6)]),
                    .customFunction(target: .constant(7), name: "f:", arguments: [.constant(8)])),
                .equalTo, .cast(.constant(9), "NSDate"))),
            .comparison(ComparisonPredicate(
                .member(
                    .subquery(
                        collection: .constant([1]), variable: "x",
                        predicate: .and([
                            .comparison(ComparisonPredicate(.member(.variable("x"), "price"), .greaterThan, .constant(10))),
                            .comparison(ComparisonPredicate(.variable("x"), .equalTo, .constant(11))),
                        ])),
                    "@count"),
                .greaterThan, .constant(0))),
        ])
        #expect(bound == expected)
    }

    @Test func expressionSubstitution() throws {
        let expression = try FormatExpression(format: "$rate * price")
        #expect(expression.variableNames == ["rate"])
        #expect(expression.substituting(["rate": 2]) == .arithmetic(.multiply, .constant(2), .keyPath("price")))
    }
}
