import Foundation
import PredicateLanguage
import QueryBuilder
import Testing

/// `FormatPredicate(#Predicate ...)`: the predicates of swift-foundation's tests of its
/// conversion to `NSPredicate` (Tests/FoundationEssentialsTests/PredicateConversionTests.swift),
/// converted to Apple's expected formats exactly (compared as parsed and printed by this
/// package), and the conversion's errors.
@Suite("Foundation #Predicate conversion")
struct PredicateConversionTests {
    /// Checks that a predicate converts to the format Apple's conversion gives (`arguments` as
    /// `%@` values), both printed canonically.
    private func expect(
        _ predicate: Predicate<Sample>, _ format: String, _ arguments: [Value] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let converted = try FormatPredicate(predicate)
        let expected = try FormatPredicate(format: format, argumentArray: arguments)
        #expect(converted.predicateFormat == expected.predicateFormat, sourceLocation: sourceLocation)
    }

    @Test func basics() throws {
        let compareTo = 2
        try expect(#Predicate<Sample> { $0.a == compareTo }, "a == 2")
        try expect(#Predicate<Sample> { $0.a + 2 == 4 }, "a + 2 == 4")
        try expect(#Predicate<Sample> { $0.b.count == 5 }, "b.length == 5")
        try expect(#Predicate<Sample> { $0.g.count == 5 }, "g.@count == 5")
        try expect(#Predicate<Sample> { object in object.g.filter { $0 == object.d }.count > 0 },
                   "SUBQUERY(g, $_local_1, $_local_1 == d).@count > 0")
    }

    @Test func equality() throws {
        try expect(#Predicate<Sample> { $0.a == 0 }, "a == 0")
        try expect(#Predicate<Sample> { $0.a != 0 }, "a != 0")
    }

    @Test func ranges() throws {
        let now = Date(timeIntervalSinceReferenceDate: 5_000)
        let range = now ..< now
        let closedRange = now ... now
        let from = now...
        let through = ...now
        let upTo = ..<now
        try expect(#Predicate<Sample> { ($0.i ... $0.i).contains($0.i) }, "i BETWEEN {i, i}")
        try expect(#Predicate<Sample> { ($0.i ..< $0.i).contains($0.i) }, "i >= i AND i < i")
        try expect(#Predicate<Sample> { range.contains($0.i) }, "i >= %@ AND i < %@", [.date(now), .date(now)])
        try expect(#Predicate<Sample> { closedRange.contains($0.i) }, "i BETWEEN %@", [.list([.date(now), .date(now)])])
        try expect(#Predicate<Sample> { from.contains($0.i) }, "i >= %@", [.date(now)])
        try expect(#Predicate<Sample> { through.contains($0.i) }, "i <= %@", [.date(now)])
        try expect(#Predicate<Sample> { upTo.contains($0.i) }, "i < %@", [.date(now)])
    }

    @Test func constantsOfAnyTypeFoldAtConversion() throws {
        let captured = NotStored(a: 1, b: [1, 2, 3])
        try expect(#Predicate<Sample> { $0.a == captured.a }, "a == 1")
        try expect(#Predicate<Sample> { $0.f == captured.b.contains([1, 2]) }, "f == YES")
    }

    @Test func subscriptsAndStrings() throws {
        try expect(#Predicate<Sample> { $0.g[0] == 2 }, "g[0] == 2")
        try expect(#Predicate<Sample> { $0.b.contains("foo") }, "b CONTAINS 'foo'")
        try expect(#Predicate<Sample> { $0.b.starts(with: "foo") }, "b BEGINSWITH 'foo'")
    }

    @Test func booleansAsConditionsAndValues() throws {
        try expect(#Predicate<Sample> { _ in true }, "YES == YES")
        try expect(#Predicate<Sample> { _ in false }, "NO == YES")
        try expect(#Predicate<Sample> { _ in true && false }, "(YES == YES) && (NO == YES)")
        try expect(#Predicate<Sample> { $0.f }, "f == YES")
        try expect(#Predicate<Sample> { ($0.f && true) == false }, "TERNARY(f == YES AND YES == YES, YES, NO) == NO")
        try expect(#Predicate<Sample> { $0.f ? true : false }, "TERNARY(f == YES, YES, NO) == YES")
    }

    @Test func optionals() throws {
        try expect(#Predicate<Sample> { ($0.j ?? "").isEmpty }, "TERNARY(j != NULL, j, '').length == 0")
        try expect(#Predicate<Sample> { ($0.j?.count ?? -1) > 1 },
                   "TERNARY(TERNARY(j != nil, j.length, nil) != nil, TERNARY(j != nil, j.length, nil), 1 * -1) > 1")
        try expect(#Predicate<Sample> { $0.j == nil }, "j == nil")
    }

    @Test func uuidsAndSequences() throws {
        let uuid = Sample().k
        try expect(#Predicate<Sample> { $0.k == uuid }, "k == %@", [.string(uuid.uuidString)])
        try expect(#Predicate<Sample> { $0.g.contains(7) }, "7 IN g")
        try expect(#Predicate<Sample> { [1, 2, 3].contains($0.a) }, "a IN {1, 2, 3}")
        try expect(#Predicate<Sample> { $0.g.contains { $0 > 8 } }, "SUBQUERY(g, $_local_1, $_local_1 > 8).@count != 0")
        try expect(#Predicate<Sample> { $0.g.allSatisfy { $0 > 1 } }, "SUBQUERY(g, $_local_1, NOT $_local_1 > 1).@count == 0")
        try expect(#Predicate<Sample> { $0.g.max() == 9 }, "g.@max == 9")
        try expect(#Predicate<Sample> { $0.g.min() == 5 }, "g.@min == 5")
        try expect(#Predicate<Sample> { $0.g.isEmpty }, "g.@count == 0")
        try expect(#Predicate<Sample> { -$0.a < 0 }, "a * -1 < 0")
        try expect(#Predicate<Sample> { $0.c / 2 > 1 }, "c / 2 > 1")
    }

    @Test func integerDivisionAndRemainderKeepSwiftsMeaning() throws {
        try expect(#Predicate<Sample> { $0.a / 2 == 3 }, "trunc:(a / 2) == 3")
        try expect(#Predicate<Sample> { $0.a % 2 == 1 }, "modulus:by:(a, 2) == 1")
    }

    @Test func whatHasNoCounterpartIsAnErrorNamingIt() throws {
        #expect(throws: PredicateConversionError.unknownKeyPath("\\Sample.nonQueryable", model: "Sample")) {
            try FormatPredicate(#Predicate<Sample> { $0.nonQueryable == 2 })
        }
        // A range subscript of a list has no counterpart.
        let error = try #require(throws: PredicateConversionError.self) {
            try FormatPredicate(#Predicate<Sample> { $0.g[0 ..< 2].isEmpty })
        }
        #expect(error.description.contains("CollectionRangeSubscript"))
        #expect(error.description.contains("has no counterpart"))
    }
}

/// A captured value of a type the store cannot hold (`NonObjCStruct` in Apple's tests).
struct NotStored: Codable, Sendable {
    var a: Int
    var b: [Int]
}
