import Foundation
import Testing
@testable import PredicateLanguage

@Suite("Evaluation: collections, modifiers, IN, CONTAINS")
struct CollectionEvaluationTests {
    @Test func inLists() throws {
        #expect(try holds("FR", .in, ["DE", "FR"]) == true)
        #expect(try holds("fr", .in, ["DE", "FR"]) == false)
        #expect(try holds("fr", .in, ["DE", "FR"], [.caseInsensitive]) == true)
        #expect(try holds("é", .in, ["e"], [.diacriticInsensitive]) == true)
        #expect(try holds(.int(2), .in, [1, 2.0, 3]) == true)
        #expect(try holds(.double(2), .in, [1, 2, 3]) == true)
        #expect(try holds(.bool(true), .in, [1, 2]) == true)
        #expect(try holds("2", .in, [1, 2]) == false)
        #expect(try holds(.int(2), .in, [1, 2], [.caseInsensitive]) == true)
        #expect(try holds(.null, .in, [1, .null]) == true)
        #expect(try holds(.null, .in, [1, 2]) == false)
        #expect(try holds(.int(1), .in, []) == false)
        #expect(try holds(.int(1), .in, .null) == false)
        #expect(try holds(.int(1), .in, .int(1)) == false)
    }

    @Test func inObjectsTestsTheValues() throws {
        let object: Value = ["a": 1, "b": "x"]
        #expect(try holds(.int(1), .in, object) == true)
        #expect(try holds("a", .in, object) == false)
        #expect(try holds("X", .in, object, [.caseInsensitive]) == true)
    }

    @Test func containsOnLists() throws {
        #expect(try holds(["a", "b"], .contains, "b") == true)
        #expect(try holds(["a", "b"], .contains, "B") == false)
        #expect(try holds(["a", "b"], .contains, "B", [.caseInsensitive]) == true)
        #expect(try holds([1, 2], .contains, .double(2)) == true)
        #expect(try holds([1, 2], .contains, "2") == false)
        #expect(try holds([], .contains, .int(1)) == false)
        #expect(try holds(.null, .contains, .int(1)) == false)
        #expect(try holds(["k": 5], .contains, .int(5)) == true)
    }

    @Test func anyAndAll() throws {
        #expect(try holds([1, 5, 10], .greaterThan, .int(8), [], .any) == true)
        #expect(try holds([1, 5, 10], .greaterThan, .int(8), [], .all) == false)
        #expect(try holds([9, 10], .greaterThan, .int(8), [], .all) == true)
        #expect(try holds([], .greaterThan, .int(8), [], .any) == false)
        #expect(try holds([], .greaterThan, .int(8), [], .all) == true)
        #expect(try holds(.null, .equalTo, .null, [], .any) == false)
        #expect(try holds(.null, .equalTo, .int(1), [], .all) == true)
        // A scalar is no collection: Apple raises (it once counted as a one-member list).
        #expect(throws: FormatPredicateError.evaluation(
            "the left hand side for an ALL or ANY operator must be either an NSArray or an NSSet, but it is a integer (9)")) {
            try holds(.int(9), .greaterThan, .int(8), [], .any)
        }
        #expect(throws: FormatPredicateError.self) { try holds(.int(7), .greaterThan, .int(8), [], .all) }
        #expect(try holds(["Anna", "bob"], .beginsWith, "b", [], .any) == true)
        #expect(try holds(["Anna", "bob"], .beginsWith, "B", [.caseInsensitive], .all) == false)
        #expect(try holds(["a", "b"], .in, ["a", "b", "c"], [], .all) == true)
        #expect(try holds(["a", "d"], .in, ["a", "b", "c"], [], .all) == false)
        // NONE is NOT ANY.
        let none = FormatPredicate.not(EvaluationTestSupport.comparison(
            .keyPath("tags"), .equalTo, .constant("x"), modifier: .any))
        #expect(try none.evaluate(with: ["tags": ["a", "b"]] as [String: Value]) == true)
        #expect(try none.evaluate(with: ["tags": ["a", "x"]] as [String: Value]) == false)
    }

    @Test func directComparisonOfAListIsNotMemberwise() throws {
        #expect(try holds(["x"], .equalTo, "x") == false)
        #expect(try holds([1, 2], .greaterThan, .int(0)) == false)
    }

    static let order: [String: Value] = [
        "customer": ["name": "Ana", "address": ["city": "Lyon"]],
        "items": [
            ["name": "pen", "price": 2, "tags": ["office"]],
            ["name": "ink", "price": 3.5, "tags": ["office", "refill"]],
            ["name": "pen", "price": .null, "tags": []],
        ],
        "scores": [3, 1, 2],
        "empty": [],
    ]

    func value(_ expression: FormatExpression) throws -> Value {
        try EvaluationTestSupport.value(expression, on: Self.order)
    }

    @Test func nestedKeyPaths() throws {
        #expect(try value(.keyPath("customer.name")) == "Ana")
        #expect(try value(.keyPath("customer.address.city")) == "Lyon")
        #expect(try value(.keyPath("customer.address.zip")) == .null)
        #expect(try value(.keyPath("customer.name.length")) == .int(3))   // NSString length
        #expect(try value(.keyPath("customer.name.size")) == .null)
        #expect(try value(.keyPath("nothing.at.all")) == .null)
        #expect(try value(.keyPath("items.name")) == ["pen", "ink", "pen"])
        #expect(try value(.keyPath("items.price")) == [2, 3.5, .null])
        #expect(try value(.keyPath("items.tags")) == [["office"], ["office", "refill"], []])
    }

    @Test func collectionOperators() throws {
        #expect(try value(.keyPath("items.@count")) == 3)
        #expect(try value(.keyPath("items.@count.price")) == 3)
        #expect(try value(.keyPath("empty.@count")) == 0)
        #expect(try value(.keyPath("missing.@count")) == 0)
        #expect(try value(.keyPath("customer.name.@count")) == .null)
        #expect(try value(.keyPath("items.@sum.price")) == .double(5.5))
        #expect(try value(.keyPath("scores.@sum")) == .int(6))
        #expect(try value(.keyPath("empty.@sum")) == .int(0))
        #expect(try value(.keyPath("items.@avg.price")) == .double(2.75))
        #expect(try value(.keyPath("scores.@avg")) == .double(2))
        #expect(try value(.keyPath("empty.@avg")) == .null)
        #expect(try value(.keyPath("items.@min.price")) == .int(2))
        #expect(try value(.keyPath("items.@max.price")) == .double(3.5))
        #expect(try value(.keyPath("items.@max.name")) == "pen")
        #expect(try value(.keyPath("items.@min.name")) == "ink")
        #expect(try value(.keyPath("empty.@max")) == .null)
        #expect(try value(.keyPath("items.@distinctUnionOfObjects.name")) == ["pen", "ink"])
        #expect(try value(.keyPath("items.@unionOfObjects.name")) == ["pen", "ink", "pen"])
        #expect(try value(.keyPath("items.@unionOfArrays.tags")) == ["office", "office", "refill"])
        #expect(try value(.keyPath("items.@distinctUnionOfArrays.tags")) == ["office", "refill"])
        let sumOfNames = EvaluationTestSupport.error { try value(.keyPath("items.@sum.name")) }
        #expect(sumOfNames == .evaluation("@sum needs numbers, but the list holds a string (\"pen\")"))
        let unknown = EvaluationTestSupport.error { try CompiledExpression(.keyPath("items.@median")) }
        #expect(unknown == .evaluation(
            "unknown collection operator @median in the key path \"items.@median\"; use one of @count, @sum, @avg, @min, @max, @distinctUnionOfObjects, @unionOfObjects, @distinctUnionOfArrays, @unionOfArrays, @firstObject, @lastObject, @allKeys, @allValues"))
    }

    @Test func collectionOperatorsInPredicates() throws {
        let predicate = FormatPredicate.and([
            EvaluationTestSupport.comparison(.keyPath("items.@count"), .equalTo, .constant(3)),
            EvaluationTestSupport.comparison(.keyPath("items.@sum.price"), .greaterThan, .constant(5)),
            EvaluationTestSupport.comparison(.keyPath("items.name"), .equalTo, .constant("ink"), modifier: .any),
        ])
        #expect(try predicate.evaluate(with: Self.order) == true)
    }

    @Test func indexForms() throws {
        #expect(try value(.index(.keyPath("scores"), .expression(.constant(0)))) == 3)
        #expect(try value(.index(.keyPath("scores"), .expression(.constant(2)))) == 2)
        #expect(try value(.index(.keyPath("scores"), .expression(.constant(3)))) == .null)
        #expect(try value(.index(.keyPath("scores"), .expression(.constant(-1)))) == .null)
        #expect(try value(.index(.keyPath("scores"), .expression(.constant(1.0)))) == 1)
        #expect(try value(.index(.keyPath("scores"), .expression(.constant(1.5)))) == .null)
        #expect(try value(.index(.keyPath("scores"), .first)) == 3)
        #expect(try value(.index(.keyPath("scores"), .last)) == 2)
        #expect(try value(.index(.keyPath("empty"), .first)) == .null)
        #expect(try value(.index(.keyPath("empty"), .last)) == .null)
        #expect(try value(.index(.keyPath("scores"), .size)) == 3)
        #expect(try value(.index(.keyPath("missing"), .size)) == 0)
        #expect(try value(.index(.keyPath("customer"), .expression(.constant("name")))) == "Ana")
        #expect(try value(.index(.keyPath("customer"), .expression(.constant("zip")))) == .null)
        #expect(try value(.member(.index(.keyPath("items"), .last), "name")) == "pen")
        #expect(try value(.member(.index(.keyPath("items"), .expression(.constant(1))), "price")) == .double(3.5))
    }
}
