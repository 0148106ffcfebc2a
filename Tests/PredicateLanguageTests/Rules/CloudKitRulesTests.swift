import Foundation
import Testing
@testable import PredicateLanguage

@Suite("CloudKit rules")
struct CloudKitRulesTests {
    let cupertino = FormatExpression.constant(.location(Location(latitude: 37.331913, longitude: -122.030210)))
    let cupertinoText = #"CAST({37.331913, -122.03021}, "CLLocation")"#
    let distanceName = "distanceToLocation:fromLocation:"

    func distance(_ first: FormatExpression, _ second: FormatExpression) -> FormatExpression {
        .function(distanceName, [first, second])
    }

    func suffix(_ message: String) -> String { "\(message) in CloudKit queries" }

    @Test func referenceListingsAreAccepted() {
        let red = Tree.constant("red")
        let predicates: [FormatPredicate] = [
            Tree.compare(Tree.key("favoriteColors"), .equalTo, red, modifier: .any),
            Tree.compare(Tree.key("favoriteColors"), .contains, red),
            Tree.compare(red, .in, Tree.key("favoriteColors")),
            Tree.compare(Tree.constant(["red", "green"]), .equalTo, Tree.key("favoriteColor"), modifier: .any),
            Tree.compare(Tree.key("favoriteColor"), .in, Tree.constant(["red", "green"])),
            Tree.compare(Tree.key("favoriteColors"), .beginsWith, red, modifier: .any),
            Tree.compare(.evaluatedObject, .contains, Tree.constant("bob smith")),
            .and([Tree.compare(.evaluatedObject, .contains, Tree.constant("bob")),
                  Tree.compare(.evaluatedObject, .contains, Tree.constant("smith"))]),
            Tree.compare(distance(Tree.key("location"), cupertino), .lessThan, Tree.constant(10_000.0)),
            .truePredicate,
            Tree.compare(Tree.key("employee"), .equalTo, Tree.constant(.reference(Reference(recordName: "employee-42")))),
        ]
        for predicate in predicates { expectAccepted(.cloudKit, predicate) }
    }

    @Test func basicComparisonsOptionsAndConstantsAreAccepted() {
        let predicates: [FormatPredicate] = [
            Tree.compare(Tree.key("age"), .between, Tree.constant([1, 10])),
            Tree.compare(Tree.key("age"), .between, .aggregate([.variable("LOW"), .variable("HIGH")])),
            Tree.compare(Tree.key("name"), .equalTo, Tree.constant("é"), options: [.caseInsensitive, .diacriticInsensitive]),
            Tree.compare(Tree.key("created"), .lessThan, .function("now", [])),
            Tree.compare(Tree.key("count"), .notEqualTo, .variable("N")),
            .not(Tree.equals("a", 1)),
            .falsePredicate,
            .or([]),
            .or([Tree.equals("a", 1)]),
        ]
        for predicate in predicates { expectAccepted(.cloudKit, predicate) }
    }

    @Test func allIsRejected() {
        expectViolations(.cloudKit, Tree.compare(Tree.key("tags"), .equalTo, Tree.constant("a"), modifier: .all),
                         [(suffix("ALL is not supported"), #"ALL tags == "a""#)])
    }

    @Test func orIsRejected() {
        let predicate = FormatPredicate.or([Tree.equals("a", 1), Tree.equals("b", 2), Tree.equals("c", 3)])
        expectViolations(.cloudKit, predicate, [(suffix("OR is not supported"), "a == 1 OR b == 2 OR c == 3")])
        let nested = FormatPredicate.and([Tree.equals("a", 1), .or([Tree.equals("b", 2), Tree.equals("c", 3)])])
        expectViolations(.cloudKit, nested, [(suffix("OR is not supported"), "b == 2 OR c == 3")])
    }

    @Test func unsupportedStringOperatorsAreRejected() {
        let name = Tree.key("name")
        expectViolations(.cloudKit, Tree.compare(name, .endsWith, Tree.constant("son")),
                         [(suffix("ENDSWITH is not supported"), #"name ENDSWITH "son""#)])
        expectViolations(.cloudKit, Tree.compare(name, .like, Tree.constant("a*"), options: .caseInsensitive),
                         [(suffix("LIKE is not supported"), #"name LIKE[c] "a*""#)])
        expectViolations(.cloudKit, Tree.compare(name, .matches, Tree.constant("[a-z]+")),
                         [(suffix("MATCHES is not supported"), #"name MATCHES "[a-z]+""#)])
        expectAccepted(.cloudKit, Tree.compare(name, .beginsWith, Tree.constant("a")))
    }

    @Test func notOverAndIsRejected() {
        let predicate = FormatPredicate.not(.and([Tree.equals("a", 1), Tree.equals("b", 2)]))
        expectViolations(.cloudKit, predicate,
                         [(suffix("NOT cannot negate an AND predicate"), "NOT (a == 1 AND b == 2)")])
        let doubled = FormatPredicate.not(.not(.and([Tree.equals("a", 1), Tree.equals("b", 2)])))
        expectViolations(.cloudKit, doubled,
                         [(suffix("NOT cannot negate an AND predicate"), "NOT NOT (a == 1 AND b == 2)")])
        expectAccepted(.cloudKit, .and([.not(Tree.equals("a", 1)), .not(Tree.equals("b", 2))]))
    }

    @Test func notOverTokenizedSearchIsRejected() {
        let search = Tree.compare(.evaluatedObject, .contains, Tree.constant("bob"))
        expectViolations(.cloudKit, .not(search),
                         [(suffix("NOT cannot negate a tokenized search"), #"NOT SELF CONTAINS "bob""#)])
        let tokenized = Tree.compare(.function("tokenize:using:", [Tree.key("name"), Tree.constant("en")]),
                                     .equalTo, Tree.constant("bob"), modifier: .any)
        expectAccepted(.cloudKit, tokenized)
        expectViolations(.cloudKit, .not(tokenized),
                         [(suffix("NOT cannot negate a tokenized search"), #"NOT ANY tokenize:using:(name, "en") == "bob""#)])
    }

    @Test func notOverDistanceIsRejected() {
        let near = Tree.compare(distance(Tree.key("location"), cupertino), .lessThan, Tree.constant(10_000))
        expectViolations(.cloudKit, .not(near),
                         [(suffix("NOT cannot negate distanceToLocation:fromLocation:"),
                           "NOT distanceToLocation:fromLocation:(location, \(cupertinoText)) < 10000")])
    }

    @Test func notOverBetweenIsRejectedThroughDoubleNegation() {
        let between = Tree.compare(Tree.key("age"), .between, Tree.constant([1, 10]))
        expectViolations(.cloudKit, .not(between),
                         [(suffix("NOT cannot negate BETWEEN"), "NOT age BETWEEN {1, 10}")])
        expectViolations(.cloudKit, .not(.not(between)),
                         [(suffix("NOT cannot negate BETWEEN"), "NOT NOT age BETWEEN {1, 10}")])
        expectAccepted(.cloudKit, between)
    }

    @Test func containsShapes() {
        let message = suffix("CONTAINS can only test list membership or search text with self")
        expectViolations(.cloudKit, Tree.compare(.variable("list"), .contains, Tree.constant("a")),
                         [(message, #"$list CONTAINS "a""#)])
        expectViolations(.cloudKit, Tree.compare(Tree.key("tags"), .contains, Tree.key("other")),
                         [(message, "tags CONTAINS other")])
        expectViolations(.cloudKit, Tree.compare(.evaluatedObject, .contains, Tree.constant(5)),
                         [(message, "SELF CONTAINS 5")])
        expectViolations(.cloudKit, Tree.compare(.evaluatedObject, .contains, .variable("TEXT")),
                         [(message, "SELF CONTAINS $TEXT")])
        expectAccepted(.cloudKit, Tree.compare(Tree.key("tags"), .contains, .variable("TAG")))
    }

    @Test func selfOnlyForFullTextSearch() {
        let message = suffix(#"SELF can only be used for a full-text search (self CONTAINS "text")"#)
        expectViolations(.cloudKit, Tree.compare(.evaluatedObject, .equalTo, Tree.constant("x")),
                         [(message, #"SELF == "x""#)])
        expectViolations(.cloudKit, Tree.compare(Tree.constant("x"), .in, .evaluatedObject),
                         [(message, #""x" IN SELF"#)])
        expectAccepted(.cloudKit, Tree.compare(.evaluatedObject, .contains, Tree.constant("x")))
    }

    @Test func relatedRecordsAndCollectionOperators() {
        expectViolations(.cloudKit, Tree.equals("address.city", "Paris"),
                         [(suffix("key paths into related records are not supported"), "address.city")])
        expectViolations(.cloudKit, Tree.compare(.member(.variable("x"), "name"), .equalTo, Tree.constant(1)),
                         [(suffix("key paths into related records are not supported"), "$x.name")])
        expectViolations(.cloudKit, Tree.compare(Tree.key("tags.@count"), .greaterThan, Tree.constant(2)),
                         [(suffix("collection operators (@count, @sum, ...) are not supported"), "tags.@count")])
        expectAccepted(.cloudKit, Tree.equals("city", "Paris"))
    }

    @Test func unsupportedFunctions() {
        expectViolations(.cloudKit, Tree.compare(.function("abs:", [Tree.key("x")]), .greaterThan, Tree.constant(1)),
                         [(suffix("the function abs: is not supported"), "abs:(x)")])
        expectViolations(.cloudKit, Tree.compare(Tree.key("n"), .lessThan, .function("random", [])),
                         [(suffix("the function random is not supported"), "random()")])
        expectAccepted(.cloudKit, Tree.compare(Tree.key("due"), .lessThan, .function("now", [])))
    }

    @Test func unsupportedExpressionKinds() {
        let a = Tree.key("a")
        let cases: [(FormatExpression, String, String)] = [
            (.arithmetic(.add, a, .constant(1)), "arithmetic", "a + 1"),
            (.negation(a), "negation", "-a"),
            (.subquery(collection: Tree.key("items"), variable: "x", predicate: .truePredicate), "SUBQUERY",
             "SUBQUERY(items, $x, TRUEPREDICATE)"),
            (.customFunction(target: a, name: "f", arguments: []), "FUNCTION", #"FUNCTION(a, "f")"#),
            (.ternary(.truePredicate, a, .constant(0)), "TERNARY", "TERNARY(TRUEPREDICATE, a, 0)"),
            (.cast(a, "NSDate"), "CAST", #"CAST(a, "NSDate")"#),
            (.index(Tree.key("tags"), .first), "index", "tags[FIRST]"),
        ]
        for (expression, kind, fragment) in cases {
            expectViolations(.cloudKit, Tree.compare(expression, .equalTo, .constant(1)),
                             [(suffix("\(kind) expressions are not supported"), fragment)])
        }
        expectViolations(.cloudKit, Tree.compare(a, .in, .aggregate([Tree.key("b"), .constant(1)])),
                         [(suffix("aggregate expressions are not supported"), "{b, 1}")])
        expectAccepted(.cloudKit, Tree.compare(a, .in, .aggregate([.variable("B"), .constant(1)])))
    }

    @Test func distanceMustTestInsideACircle() {
        let message = suffix("distanceToLocation:fromLocation: can only test whether a location is inside a circle (< or <= a radius)")
        let near = distance(Tree.key("location"), cupertino)
        let nearText = "distanceToLocation:fromLocation:(location, \(cupertinoText))"
        expectViolations(.cloudKit, Tree.compare(near, .greaterThan, Tree.constant(10_000)),
                         [(message, "\(nearText) > 10000")])
        expectViolations(.cloudKit, Tree.compare(near, .greaterThanOrEqualTo, Tree.constant(10_000)),
                         [(message, "\(nearText) >= 10000")])
        expectViolations(.cloudKit, Tree.compare(near, .equalTo, Tree.constant(0)),
                         [(message, "\(nearText) == 0")])
        expectViolations(.cloudKit, Tree.compare(near, .lessThan, Tree.key("radius")),
                         [(message, "\(nearText) < radius")])
        expectViolations(.cloudKit, Tree.compare(Tree.constant(10_000), .greaterThan, near),
                         [(message, "10000 > \(nearText)")])
        expectViolations(.cloudKit, Tree.compare(distance(cupertino, Tree.key("location")), .lessThan, Tree.constant(5)),
                         [(message, "distanceToLocation:fromLocation:(\(cupertinoText), location) < 5")])
        expectAccepted(.cloudKit, Tree.compare(near, .lessThanOrEqualTo, .variable("RADIUS")))
        expectAccepted(.cloudKit, Tree.compare(distance(Tree.key("location"), .variable("HERE")), .lessThan, Tree.constant(500)))
    }

    @Test func violationsComeInReadingOrderAndValidateThrowsTheFirst() {
        let predicate = FormatPredicate.or([
            Tree.compare(Tree.key("a.b"), .endsWith, Tree.constant("x"), modifier: .all),
            Tree.compare(Tree.key("c"), .like, Tree.constant("y")),
        ])
        expectViolations(.cloudKit, predicate, [
            (suffix("ALL is not supported"), #"ALL a.b ENDSWITH "x""#),
            (suffix("key paths into related records are not supported"), "a.b"),
            (suffix("ENDSWITH is not supported"), #"ALL a.b ENDSWITH "x""#),
            (suffix("OR is not supported"), #"ALL a.b ENDSWITH "x" OR c LIKE "y""#),
            (suffix("LIKE is not supported"), #"c LIKE "y""#),
        ].map { ($0.0, $0.1) })
        #expect(PredicateRules.cloudKit.violations(in: predicate).first?.description
                == #"ALL is not supported in CloudKit queries: ALL a.b ENDSWITH "x""#)
    }
}
