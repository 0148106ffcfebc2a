import Foundation
import Testing
@testable import PredicateLanguage

/// The left-hand side of `<expression> == 1`.
private func left(_ text: String, _ arguments: (any FormatArgument)?...) throws -> FormatExpression {
    guard case .comparison(let comparison) = try FormatPredicate(
        format: "\(text) == 1", argumentArray: arguments.map { $0?.formatArgumentValue ?? .null })
    else {
        Issue.record("not a comparison: \(text)")
        return .constant(.null)
    }
    return comparison.left
}

private func key(_ path: String) -> FormatExpression { .keyPath(path) }

@Suite("Parser: expressions")
struct ParserExpressionTests {
    @Test func keyPaths() throws {
        #expect(try left("name") == key("name"))
        #expect(try left("a.b.c") == key("a.b.c"))
        #expect(try left("a . b") == key("a.b"))
        #expect(try left("_private9") == key("_private9"))
        #expect(try left("prénom") == key("prénom"))
        #expect(try left("名前") == key("名前"))
        #expect(try left("tags.@count") == key("tags.@count"))
        #expect(try left("items.@sum.price") == key("items.@sum.price"))
        #expect(try left("@count") == key("@count"))
        #expect(try left("a.@avg.x") == key("a.@avg.x"))
        #expect(try left("a.@min.x + a.@max.x") == .arithmetic(.add, key("a.@min.x"), key("a.@max.x")))
        #expect(try left("a.@distinctUnionOfObjects.x") == key("a.@distinctUnionOfObjects.x"))
        #expect(try left("a.@unionOfObjects.x") == key("a.@unionOfObjects.x"))
        #expect(try left("#IN") == key("IN"))
        #expect(try left("#self.#size") == key("self.size"))
        #expect(try left("a.size") == key("a.size"))
        #expect(try left("size") == key("size"))
        #expect(try left("SELF.a") == key("a"))
        #expect(try left("self.a.b") == key("a.b"))
        #expect(try left("$x") == .variable("x"))
        #expect(try left("$x.name") == .member(.variable("x"), "name"))
        #expect(try left("$x.a.b") == .member(.variable("x"), "a.b"))
        #expect(try left("cast") == key("cast"))
    }

    @Test func indexes() throws {
        #expect(try left("a[0]") == .index(key("a"), .expression(.constant(0))))
        #expect(try left("a[%d]", 2) == .index(key("a"), .expression(.constant(2))))
        #expect(try left("a[$i]") == .index(key("a"), .expression(.variable("i"))))
        #expect(try left("a['key']") == .index(key("a"), .expression(.constant("key"))))
        #expect(try left("a[FIRST]") == .index(key("a"), .first))
        #expect(try left("a[last]") == .index(key("a"), .last))
        #expect(try left("a[SIZE]") == .index(key("a"), .size))
        #expect(try left("a[0].b") == .member(.index(key("a"), .expression(.constant(0))), "b"))
        #expect(try left("a[0].b.c") == .member(.index(key("a"), .expression(.constant(0))), "b.c"))
        #expect(try left("a[0][1]") == .index(.index(key("a"), .expression(.constant(0))), .expression(.constant(1))))
        #expect(try left("a.b[FIRST]") == .index(key("a.b"), .first))
        #expect(try left("(a).b") == .member(key("a"), "b"))
        #expect(try left("(a + 1).b") == .member(.arithmetic(.add, key("a"), .constant(1)), "b"))
        #expect(try left("lowercase:(a).b") == .member(.function("lowercase:", [key("a")]), "b"))
    }

    @Test func arithmetic() throws {
        let a = key("a"), b = key("b"), c = key("c")
        #expect(try left("a + b") == .arithmetic(.add, a, b))
        #expect(try left("a - b - c") == .arithmetic(.subtract, .arithmetic(.subtract, a, b), c))
        #expect(try left("a + b * c") == .arithmetic(.add, a, .arithmetic(.multiply, b, c)))
        #expect(try left("a * b + c") == .arithmetic(.add, .arithmetic(.multiply, a, b), c))
        #expect(try left("a / b / c") == .arithmetic(.divide, .arithmetic(.divide, a, b), c))
        #expect(try left("a ** b ** c") == .arithmetic(.power, a, .arithmetic(.power, b, c)))
        #expect(try left("a * b ** c") == .arithmetic(.multiply, a, .arithmetic(.power, b, c)))
        #expect(try left("(a + b) * c") == .arithmetic(.multiply, .arithmetic(.add, a, b), c))
        #expect(try left("a-1") == .arithmetic(.subtract, a, .constant(1)))
        #expect(try left("2*-a") == .arithmetic(.multiply, .constant(2), .negation(a)))
    }

    @Test func builtinFunctions() throws {
        #expect(try left("now()") == .function("now", []))
        #expect(try left("random ( )") == .function("random", []))
        #expect(try left("abs:(x)") == .function("abs:", [key("x")]))
        #expect(try left("abs:(-3)") == .function("abs:", [.constant(-3)]))
        #expect(try left("raise:toPower:(2, 3)") == .function("raise:toPower:", [.constant(2), .constant(3)]))
        #expect(
            try left("distanceToLocation:fromLocation:(location, %@)", Location(latitude: 1, longitude: 2))
                == .function(
                    "distanceToLocation:fromLocation:",
                    [key("location"), .constant(.location(Location(latitude: 1, longitude: 2)))]))
        #expect(
            try left("tokenize:using:(%@, \"Cdl\")", "bob smith")
                == .function("tokenize:using:", [.constant("bob smith"), .constant("Cdl")]))
        #expect(try left("sum:({1, 2, a})") == .function("sum:", [.aggregate([.constant(1), .constant(2), key("a")])]))
        #expect(try left("count:(tags)") == .function("count:", [key("tags")]))
        #expect(try left("lowercase:(uppercase:(name))") == .function("lowercase:", [.function("uppercase:", [key("name")])]))
        for function in BuiltinFunction.all {
            let arguments = Array(repeating: "x", count: function.arity).joined(separator: ", ")
            let expected = FormatExpression.function(function.name, Array(repeating: key("x"), count: function.arity))
            #expect(try left("\(function.name)(\(arguments))") == expected)
        }
    }

    @Test func customFunctionTernaryAndSubquery() throws {
        #expect(
            try left("FUNCTION(SELF, 'double:', price)")
                == .customFunction(target: .evaluatedObject, name: "double:", arguments: [key("price")]))
        #expect(
            try left("function(name, \"reverse\")")
                == .customFunction(target: key("name"), name: "reverse", arguments: []))
        #expect(
            try left("TERNARY(a > 1, 'big', 'small')")
                == .ternary(
                    .comparison(ComparisonPredicate(key("a"), .greaterThan, .constant(1))),
                    .constant("big"), .constant("small")))
        #expect(
            try left("TERNARY(a > 1 AND b < 2, x, y)")
                == .ternary(
                    .and([
                        .comparison(ComparisonPredicate(key("a"), .greaterThan, .constant(1))),
                        .comparison(ComparisonPredicate(key("b"), .lessThan, .constant(2))),
                    ]),
                    key("x"), key("y")))
        #expect(
            try left("SUBQUERY(items, $item, $item.price > 10 AND $item.tags CONTAINS 'x').@count")
                == .member(
                    .subquery(
                        collection: key("items"), variable: "item",
                        predicate: .and([
                            .comparison(ComparisonPredicate(.member(.variable("item"), "price"), .greaterThan, .constant(10))),
                            .comparison(ComparisonPredicate(.member(.variable("item"), "tags"), .contains, .constant("x"))),
                        ])),
                    "@count"))
    }
}
