import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryBuilder
import RecordStore
import Testing

/// The object of swift-foundation's `#Predicate` evaluation tests (`PredicateTestObject`), as a
/// stored model.
struct Probe: Queryable, Identifiable, Equatable {
    var id: String
    var a: Int = 0
    var b: String = ""
    var c: Double = 0
    var d: Int = 0
    var f: Bool = true
    var g: [Int] = []
    var h: Date = Date(timeIntervalSinceReferenceDate: 0)
    var w: Int? = nil

    enum Attribute: String, CaseIterable { case a, b, c, d, f, g, h, w }

    static var attributeKeyPaths: [PartialKeyPath<Probe>: Attribute] {
        [\.a: .a, \.b: .b, \.c: .c, \.d: .d, \.f: .f, \.g: .g, \.h: .h, \.w: .w]
    }
}

/// The predicates of swift-foundation's own evaluation tests (Tests/FoundationEssentialsTests/
/// PredicateTests.swift) with the objects they are evaluated on: Foundation's answer and the
/// store's (each predicate converted, on every engine) select the same objects.
@Suite("swift-foundation's #Predicate tests on the store")
struct FoundationPredicateTestsOnTheStore {
    /// Saves the objects, fetches with the predicate, and compares with Foundation's evaluation.
    private func agree(_ predicate: Predicate<Probe>, _ objects: [Probe], engine: TestEngine, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let context = ModelContext(store: try engine.makeStore())
        for object in objects { try context.insert(object) }
        try context.save()
        let expected = try objects.filter { try predicate.evaluate($0) }.map(\.id).sorted()
        let fetched = try context.fetch(FetchDescriptor(predicate: predicate)).map(\.id).sorted()
        #expect(fetched == expected, sourceLocation: sourceLocation)
        #expect(!expected.isEmpty && expected.count < objects.count || objects.count == 1, "each case selects some objects, not all", sourceLocation: sourceLocation)
    }

    @Test(arguments: TestEngine.allCases)
    func arithmeticAndComparison(engine: TestEngine) throws {
        let compareTo = 2
        try agree(#Predicate { $0.a == compareTo }, [Probe(id: "1", a: 1), Probe(id: "2", a: 2)], engine: engine)
        try agree(#Predicate { $0.a + 2 == 4 }, [Probe(id: "1", a: 2), Probe(id: "2", a: 3)], engine: engine)
        try agree(#Predicate { $0.a / 2 == 3 }, [Probe(id: "1", a: 6), Probe(id: "2", a: 7), Probe(id: "3", a: 8)], engine: engine)
        try agree(#Predicate { $0.c / 2.1 <= 3.0 }, [Probe(id: "1", c: 6.0), Probe(id: "2", c: 7.0)], engine: engine)
        try agree(#Predicate { -$0.a == 17 }, [Probe(id: "1", a: -17), Probe(id: "2", a: 17)], engine: engine)
        try agree(#Predicate { $0.a % 3 == -1 }, [Probe(id: "1", a: -7), Probe(id: "2", a: 7), Probe(id: "3", a: -4)], engine: engine)
    }

    @Test(arguments: TestEngine.allCases)
    func sequences(engine: TestEngine) throws {
        try agree(#Predicate { $0.g.count == 5 }, [Probe(id: "1", g: [2, 3, 5, 7, 11]), Probe(id: "2", g: [2])], engine: engine)
        try agree(#Predicate { object in !object.g.filter { $0 == object.d }.isEmpty },
                  [Probe(id: "1", d: 17, g: [3, 5, 7, 11, 13, 17, 19]), Probe(id: "2", d: 4, g: [3, 5])], engine: engine)
        try agree(#Predicate { $0.g.contains($0.a) }, [Probe(id: "1", a: 13, g: [2, 3, 5, 11, 13, 17]), Probe(id: "2", a: 4, g: [2])], engine: engine)
        try agree(#Predicate { object in object.g.contains { $0 % object.a == 0 } },
                  [Probe(id: "1", a: 2, g: [3, 5, 7, 2, 11, 13]), Probe(id: "2", a: 2, g: [3, 5])], engine: engine)
        try agree(#Predicate { object in object.g.allSatisfy { $0 % object.d != 0 } },
                  [Probe(id: "1", d: 2, g: [3, 5, 7, 11, 13, 17, 19]), Probe(id: "2", d: 2, g: [3, 4])], engine: engine)
        try agree(#Predicate { $0.g[0] == 0 }, [Probe(id: "1", g: [0]), Probe(id: "2", g: [1])], engine: engine)
    }

    @Test(arguments: TestEngine.allCases)
    func optionalsAndRanges(engine: TestEngine) throws {
        try agree(#Predicate { ($0.w.flatMap { $0 + 1 } ?? 7) % 2 == 1 },
                  [Probe(id: "1", w: 4), Probe(id: "2", w: nil), Probe(id: "3", w: 5)], engine: engine)
        try agree(#Predicate { $0.w == nil }, [Probe(id: "1", w: 4), Probe(id: "2", w: nil)], engine: engine)
        try agree(#Predicate { (3...5).contains($0.a) }, [Probe(id: "1", a: 4), Probe(id: "2", a: 6)], engine: engine)
        try agree(#Predicate { ($0.a ... $0.d).contains(4) }, [Probe(id: "1", a: 3, d: 5), Probe(id: "2", a: 5, d: 9)], engine: engine)
        try agree(#Predicate { (3 ..< 5).contains($0.a) }, [Probe(id: "1", a: 4), Probe(id: "2", a: 5)], engine: engine)
        let toMatch = 4
        try agree(#Predicate { ($0.a ..< $0.d).contains(toMatch) }, [Probe(id: "1", a: 3, d: 5), Probe(id: "2", a: 3, d: 4)], engine: engine)
        let window = Date(timeIntervalSinceReferenceDate: 100) ..< Date(timeIntervalSinceReferenceDate: 150)
        try agree(#Predicate { window.contains($0.h) },
                  [Probe(id: "1", h: Date(timeIntervalSinceReferenceDate: 120)), Probe(id: "2", h: Date(timeIntervalSinceReferenceDate: 150))], engine: engine)
        try agree(#Predicate { $0.f ? $0.a > 1 : $0.a < -1 },
                  [Probe(id: "1", a: 2, f: true), Probe(id: "2", a: 2, f: false), Probe(id: "3", a: -2, f: false)], engine: engine)
    }
}
