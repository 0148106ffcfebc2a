import Foundation
import Testing
@testable import PredicateLanguage

@Suite("Core Data rules")
struct CoreDataRulesTests {
    func suffix(_ thing: String) -> String { "\(thing) is not supported by a Core Data SQLite store" }

    @Test func whatCloudKitRejectsIsFineForCoreData() {
        let predicates: [FormatPredicate] = [
            .or([Tree.equals("a", 1), Tree.compare(Tree.key("name"), .endsWith, Tree.constant("x"))]),
            Tree.compare(Tree.key("tags.name"), .like, Tree.constant("a*"), modifier: .all, options: .caseInsensitive),
            Tree.compare(Tree.key("name"), .matches, Tree.constant("[a-z]+")),
            .not(.and([Tree.equals("a", 1), Tree.equals("b", 2)])),
            Tree.compare(Tree.key("items.@count"), .greaterThan, Tree.constant(2)),
            Tree.compare(.arithmetic(.multiply, Tree.key("price"), Tree.constant(2)), .lessThan, .function("abs:", [Tree.key("x")])),
            Tree.compare(Tree.key("created"), .lessThan, .function("now", [])),
            Tree.compare(Tree.key("tags"), .contains, Tree.constant("a")),
            Tree.compare(Tree.key("items"), .equalTo, .index(Tree.key("items"), .size)),
            Tree.compare(.cast(Tree.key("stamp"), "NSDate"), .greaterThan,
                         Tree.constant(.date(Date(timeIntervalSinceReferenceDate: 0)))),
            Tree.compare(.member(.subquery(collection: Tree.key("items"), variable: "x",
                                           predicate: Tree.compare(.member(.variable("x"), "price"), .greaterThan, .constant(10))), "@count"),
                         .greaterThan, .constant(0)),
        ]
        for predicate in predicates { expectAccepted(.coreData, predicate) }
    }

    @Test func customFunctionsAreRejected() {
        expectViolations(.coreData, Tree.compare(.customFunction(target: Tree.key("name"), name: "reversed", arguments: []), .equalTo, Tree.constant("a")),
                         [(suffix("FUNCTION expressions are"), #"FUNCTION(name, "reversed")"#)])
    }

    @Test func ternaryIsRejected() {
        expectViolations(.coreData, Tree.compare(.ternary(Tree.equals("a", 1), Tree.key("b"), Tree.key("c")), .equalTo, Tree.constant(2)),
                         [(suffix("TERNARY expressions are"), "TERNARY(a == 1, b, c)")])
    }

    @Test func unsupportedBuiltinFunctionsAreRejected() {
        let here = Value.location(Location(latitude: 1, longitude: 2))
        expectViolations(.coreData, Tree.compare(.function("distanceToLocation:fromLocation:", [Tree.key("place"), .variable("HERE")]), .lessThan, Tree.constant(10)),
                         [(suffix("the function distanceToLocation:fromLocation: is"), "distanceToLocation:fromLocation:(place, $HERE)")])
        expectViolations(.coreData, Tree.compare(.function("tokenize:using:", [Tree.key("name"), Tree.constant("en")]), .equalTo, Tree.constant("bob"), modifier: .any),
                         [(suffix("the function tokenize:using: is"), #"tokenize:using:(name, "en")"#)])
        expectViolations(.coreData, Tree.compare(Tree.key("n"), .lessThan, .function("random", [])),
                         [(suffix("the function random is"), "random()")])
        expectViolations(.coreData, Tree.compare(Tree.key("n"), .equalTo, .function("random:", [Tree.constant(6)])),
                         [(suffix("the function random: is"), "random:(6)")])
        expectViolations(.coreData, Tree.compare(.function("distanceToLocation:fromLocation:", [Tree.key("place"), .constant(here)]), .lessThan, Tree.constant(10)),
                         [(suffix("the function distanceToLocation:fromLocation: is"), #"distanceToLocation:fromLocation:(place, CAST({1, 2}, "CLLocation"))"#),
                          (suffix("location constants are"), #"CAST({1, 2}, "CLLocation")"#)])
    }

    @Test func indexSubscriptsOtherThanSizeAreRejected() {
        let message = suffix("index subscripts other than [SIZE] are")
        expectViolations(.coreData, Tree.compare(.index(Tree.key("items"), .first), .equalTo, Tree.constant(1)), [(message, "items[FIRST]")])
        expectViolations(.coreData, Tree.compare(.index(Tree.key("items"), .last), .equalTo, Tree.constant(1)), [(message, "items[LAST]")])
        expectViolations(.coreData, Tree.compare(.index(Tree.key("items"), .expression(.constant(0))), .equalTo, Tree.constant(1)), [(message, "items[0]")])
        expectAccepted(.coreData, Tree.compare(.index(Tree.key("items"), .size), .greaterThan, Tree.constant(1)))
    }

    @Test func fullTextSearchIsRejected() {
        expectViolations(.coreData, Tree.compare(.evaluatedObject, .contains, Tree.constant("bob")),
                         [(suffix("full-text search (SELF CONTAINS) is"), #"SELF CONTAINS "bob""#)])
        expectAccepted(.coreData, Tree.compare(.evaluatedObject, .in, .variable("OBJECTS")))
    }

    @Test func locationReferenceAndObjectConstantsAreRejected() {
        expectViolations(.coreData, Tree.compare(Tree.key("employee"), .equalTo, Tree.constant(.reference(Reference(recordName: "e1")))),
                         [(suffix("reference constants are"), #"CAST("e1", "CKReference")"#)])
        expectViolations(.coreData, Tree.compare(Tree.key("place"), .in, Tree.constant([.location(Location(latitude: 1, longitude: 2)), .null])),
                         [(suffix("location constants are"), #"CAST({1, 2}, "CLLocation")"#)])
        expectViolations(.coreData, Tree.compare(Tree.key("settings"), .equalTo, Tree.constant(["a": 1])),
                         [(suffix("object constants are"), #"CAST("{\"a\":1}", "NSDictionary")"#)])
        expectAccepted(.coreData, Tree.compare(Tree.key("name"), .in, Tree.constant(["a", 1, nil])))
    }

    @Test func rulesApplyInsideSubqueriesAndCompounds() {
        let inner = Tree.compare(.customFunction(target: .variable("x"), name: "f", arguments: []), .equalTo, Tree.constant(1))
        let predicate = FormatPredicate.not(.or([
            Tree.equals("a", 1),
            Tree.compare(.member(.subquery(collection: Tree.key("items"), variable: "x", predicate: inner), "@count"), .greaterThan, .constant(0)),
        ]))
        expectViolations(.coreData, predicate, [(suffix("FUNCTION expressions are"), #"FUNCTION($x, "f")"#)])
    }

    @Test func fullProfileAcceptsEverything() {
        let predicate = FormatPredicate.not(.or([
            Tree.compare(.evaluatedObject, .contains, Tree.constant("bob")),
            Tree.compare(.function("random", []), .like, Tree.constant(.location(Location(latitude: 1, longitude: 2))), modifier: .all),
            Tree.compare(.ternary(.truePredicate, .index(Tree.key("a.b"), .last), .customFunction(target: .evaluatedObject, name: "f", arguments: [])),
                         .between, .aggregate([Tree.key("x"), .negation(Tree.key("y"))])),
        ]))
        expectAccepted(.full, predicate)
        #expect(PredicateRules.full.violations(in: predicate).isEmpty)
    }
}
