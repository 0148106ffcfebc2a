import Testing
@testable import PredicateLanguage

private func compare(
    _ left: FormatExpression, _ comparisonOperator: ComparisonOperator, _ right: FormatExpression,
    modifier: ComparisonModifier = .direct
) -> FormatPredicate {
    .comparison(ComparisonPredicate(left, comparisonOperator, right, modifier: modifier))
}

/// The predicates of the CKQuery reference (seed 002) and the Query README (seed 004).
@Suite("Parser: seed predicates")
struct SeedPredicateTests {
    @Test func cloudKitReferenceListings() throws {
        let manager = Reference(recordName: "employee-42")
        #expect(
            try FormatPredicate(format: "employee == %@", manager)
                == compare(.keyPath("employee"), .equalTo, .constant(.reference(manager))))
        #expect(
            try FormatPredicate(format: "ANY favoriteColors = 'red'")
                == compare(.keyPath("favoriteColors"), .equalTo, .constant("red"), modifier: .any))
        #expect(
            try FormatPredicate(format: "favoriteColors CONTAINS 'red'")
                == compare(.keyPath("favoriteColors"), .contains, .constant("red")))
        #expect(
            try FormatPredicate(format: "'red' IN favoriteColors")
                == compare(.constant("red"), .in, .keyPath("favoriteColors")))
        #expect(
            try FormatPredicate(format: "%K CONTAINS %@", "favoriteColors", "red")
                == compare(.keyPath("favoriteColors"), .contains, .constant("red")))
        #expect(
            try FormatPredicate(format: "ANY { 'red', 'green' } = favoriteColor")
                == compare(.constant(["red", "green"]), .equalTo, .keyPath("favoriteColor"), modifier: .any))
        #expect(
            try FormatPredicate(format: "favoriteColor IN { 'red', 'green' }")
                == compare(.keyPath("favoriteColor"), .in, .constant(["red", "green"])))
        #expect(
            try FormatPredicate(format: "ANY favoriteColors BEGINSWITH 'red'")
                == compare(.keyPath("favoriteColors"), .beginsWith, .constant("red"), modifier: .any))
        #expect(
            try FormatPredicate(format: "ANY favoriteColors BEGINSWITH %@", "red")
                == compare(.keyPath("favoriteColors"), .beginsWith, .constant("red"), modifier: .any))
        #expect(
            try FormatPredicate(format: "self contains 'bob smith'")
                == compare(.evaluatedObject, .contains, .constant("bob smith")))
        #expect(
            try FormatPredicate(format: "self contains 'bob' AND self contains 'smith'")
                == .and([
                    compare(.evaluatedObject, .contains, .constant("bob")),
                    compare(.evaluatedObject, .contains, .constant("smith")),
                ]))
        let fixedLocation = Location(latitude: 37.331913, longitude: -122.030210)
        #expect(
            try FormatPredicate(format: "distanceToLocation:fromLocation:(location, %@) < %f", fixedLocation, 10_000.0)
                == compare(
                    .function("distanceToLocation:fromLocation:", [.keyPath("location"), .constant(.location(fixedLocation))]),
                    .lessThan, .constant(.double(10_000))))
        #expect(try FormatPredicate(format: "TRUEPREDICATE") == .constant(true))
    }

    @Test func typesetCurlyQuotesAreASyntaxError() {
        // The reference prints Listing 6 with typographic quotes: ‘smith’”.
        do {
            _ = try FormatPredicate(format: "self contains 'bob' AND self contains ‘smith’”")
            Issue.record("parsed")
        } catch let error as FormatPredicateError {
            guard case .syntax(let syntax) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(syntax.expected == #"a straight quote (' or ") around a string"#)
            #expect(syntax.found == "the typographic quote '‘'")
            #expect(syntax.offset == 38)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func queryReadmeExamples() throws {
        #expect(try FormatPredicate(format: "quantity == 1") == compare(.keyPath("quantity"), .equalTo, .constant(1)))
        #expect(try FormatPredicate(format: "quantity == %d", 1) == compare(.keyPath("quantity"), .equalTo, .constant(1)))
        #expect(try FormatPredicate(format: "name == %@", "Alice") == compare(.keyPath("name"), .equalTo, .constant("Alice")))
        #expect(
            try FormatPredicate(format: "%K == %@", "name", "Alice") == compare(.keyPath("name"), .equalTo, .constant("Alice")))
        #expect(
            try FormatPredicate(format: "quantity == 1 AND name == %@", "Alice")
                == .and([
                    compare(.keyPath("quantity"), .equalTo, .constant(1)),
                    compare(.keyPath("name"), .equalTo, .constant("Alice")),
                ]))
        #expect(
            try FormatPredicate(format: "(quantity == 1 AND name == %@) OR name == %@", "Alice", "Bob")
                == .or([
                    .and([
                        compare(.keyPath("quantity"), .equalTo, .constant(1)),
                        compare(.keyPath("name"), .equalTo, .constant("Alice")),
                    ]),
                    compare(.keyPath("name"), .equalTo, .constant("Bob")),
                ]))
        #expect(try FormatPredicate(format: "quantity < 1") == compare(.keyPath("quantity"), .lessThan, .constant(1)))
        #expect(
            try FormatPredicate(format: "quantity BETWEEN (1,3)")
                == compare(.keyPath("quantity"), .between, .constant([1, 3])))
    }
}
