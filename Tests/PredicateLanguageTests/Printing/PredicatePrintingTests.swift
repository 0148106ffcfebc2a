import Foundation
import Testing
@testable import PredicateLanguage

@Suite("Predicate printing")
struct PredicatePrintingTests {
    typealias Case = (predicate: FormatPredicate, expected: String)

    private func expectPrints(_ cases: [Case], sourceLocation: SourceLocation = #_sourceLocation) {
        for (predicate, expected) in cases {
            #expect(predicate.predicateFormat == expected, sourceLocation: sourceLocation)
            #expect(predicate.description == expected, sourceLocation: sourceLocation)
        }
    }

    @Test func comparisonOperators() {
        let name = Tree.key("name")
        let text = Tree.constant("a")
        expectPrints([
            (Tree.compare(name, .equalTo, text), #"name == "a""#),
            (Tree.compare(name, .notEqualTo, text), #"name != "a""#),
            (Tree.compare(Tree.key("age"), .lessThan, Tree.constant(3)), "age < 3"),
            (Tree.compare(Tree.key("age"), .lessThanOrEqualTo, Tree.constant(3)), "age <= 3"),
            (Tree.compare(Tree.key("age"), .greaterThan, Tree.constant(3)), "age > 3"),
            (Tree.compare(Tree.key("age"), .greaterThanOrEqualTo, Tree.constant(3)), "age >= 3"),
            (Tree.compare(name, .beginsWith, text), #"name BEGINSWITH "a""#),
            (Tree.compare(name, .endsWith, text), #"name ENDSWITH "a""#),
            (Tree.compare(name, .contains, text), #"name CONTAINS "a""#),
            (Tree.compare(name, .like, Tree.constant("a*?")), #"name LIKE "a*?""#),
            (Tree.compare(name, .matches, Tree.constant("[a-z]+")), #"name MATCHES "[a-z]+""#),
            (Tree.compare(text, .in, Tree.key("tags")), #""a" IN tags"#),
            (Tree.compare(Tree.key("age"), .between, Tree.constant([1, 10])), "age BETWEEN {1, 10}"),
        ])
    }

    @Test func optionsAndModifiers() {
        let name = Tree.key("name")
        expectPrints([
            (Tree.compare(name, .like, Tree.constant("a*"), options: .caseInsensitive), #"name LIKE[c] "a*""#),
            (Tree.compare(name, .equalTo, Tree.constant("é"), options: [.caseInsensitive, .diacriticInsensitive]), #"name ==[cd] "é""#),
            (Tree.compare(name, .beginsWith, Tree.constant("x"), options: .normalized), #"name BEGINSWITH[n] "x""#),
            (Tree.compare(name, .contains, Tree.constant("x"), options: [.diacriticInsensitive, .localeSensitive]), #"name CONTAINS[dl] "x""#),
            (Tree.compare(Tree.key("tags"), .equalTo, Tree.constant("red"), modifier: .any), #"ANY tags == "red""#),
            (Tree.compare(Tree.key("tags"), .beginsWith, Tree.constant("r"), modifier: .all, options: .caseInsensitive), #"ALL tags BEGINSWITH[c] "r""#),
        ])
    }

    @Test func compoundsParenthesizeNestedCompounds() {
        let a = Tree.equals("a", 1), b = Tree.equals("b", 2), c = Tree.equals("c", 3)
        expectPrints([
            (.and([a, b]), "a == 1 AND b == 2"),
            (.and([a, b, c]), "a == 1 AND b == 2 AND c == 3"),
            (.or([a, b]), "a == 1 OR b == 2"),
            (.or([a, .and([b, c])]), "a == 1 OR (b == 2 AND c == 3)"),
            (.and([.or([a, b]), c]), "(a == 1 OR b == 2) AND c == 3"),
            (.and([a, .and([b, c])]), "a == 1 AND (b == 2 AND c == 3)"),
            (.or([.or([a, b]), c]), "(a == 1 OR b == 2) OR c == 3"),
            (.and([a, .not(b)]), "a == 1 AND (NOT b == 2)"),
            (.or([.not(a), .not(.or([b, c]))]), "(NOT a == 1) OR (NOT (b == 2 OR c == 3))"),
            (.not(a), "NOT a == 1"),
            (.not(.constant(true)), "NOT TRUEPREDICATE"),
            (.not(.and([a, b])), "NOT (a == 1 AND b == 2)"),
            (.not(.not(a)), "NOT NOT a == 1"),
            (.and([a, .constant(false)]), "a == 1 AND FALSEPREDICATE"),
        ])
    }

    @Test func degenerateCompoundsAndConstants() {
        let a = Tree.equals("a", 1), b = Tree.equals("b", 2)
        expectPrints([
            (.constant(true), "TRUEPREDICATE"),
            (.constant(false), "FALSEPREDICATE"),
            (.truePredicate, "TRUEPREDICATE"),
            (.and([]), "TRUEPREDICATE"),
            (.or([]), "FALSEPREDICATE"),
            (.and([a]), "a == 1"),
            (.or([a]), "a == 1"),
            (.or([.and([a, b])]), "a == 1 AND b == 2"),
            (.not(.and([a])), "NOT a == 1"),
            (.and([.or([a]), b]), "a == 1 AND b == 2"),
            (.and([.or([]), b]), "FALSEPREDICATE AND b == 2"),
        ])
    }

    @Test func cloudKitReferenceListingsPrint() {
        let cupertino = Location(latitude: 37.331913, longitude: -122.030210)
        let distance = FormatExpression.function(
            "distanceToLocation:fromLocation:", [Tree.key("location"), Tree.constant(.location(cupertino))])
        expectPrints([
            (Tree.compare(Tree.key("favoriteColors"), .equalTo, Tree.constant("red"), modifier: .any), #"ANY favoriteColors == "red""#),
            (Tree.compare(Tree.constant(["red", "green"]), .equalTo, Tree.key("favoriteColor"), modifier: .any),
             #"ANY {"red", "green"} == favoriteColor"#),
            (Tree.compare(.evaluatedObject, .contains, Tree.constant("bob smith")), #"SELF CONTAINS "bob smith""#),
            (Tree.compare(distance, .lessThan, Tree.constant(10_000.0)),
             #"distanceToLocation:fromLocation:(location, CAST({37.331913, -122.03021}, "CLLocation")) < 10000"#),
            (Tree.compare(Tree.key("employee"), .equalTo, Tree.constant(.reference(Reference(recordName: "employee-42")))),
             #"employee == CAST("employee-42", "CKReference")"#),
        ])
    }
}
