import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryBuilder
import RecordStore
import Testing
import TestSupport

/// Random Foundation predicates, built at run time as `#Predicate` builds them, evaluated by
/// Foundation over the models in memory and run by the store (converted, in SQL where it can)
/// on every engine: the same models, always.
@Suite("Foundation #Predicate against the store")
struct PredicateDifferentialTests {
    typealias Condition = any StandardPredicateExpression<Bool>
    typealias Subject = PredicateExpressions.Variable<Gizmo>

    /// A random condition, as a recipe (built into an expression for each predicate).
    indirect enum Recipe: CustomStringConvertible {
        case quantity(PredicateExpressions.ComparisonOperator?, Int)   // nil: ==
        case quantityNotEqual(Int)
        case priceAbove(Double)
        case nameEquals(String)
        case nameStarts(String)
        case nameContains(String)
        case inStock
        case noteIsNil
        case noteOrEmptyEquals(String)
        case tagsContain(String)
        case someTagStarts(String)
        case quantityIn(ClosedRange<Int>)
        case and(Recipe, Recipe)
        case or(Recipe, Recipe)
        case not(Recipe)

        var description: String { String(reflecting: self) }
    }

    static let words = ["apple", "apricot", "banana", "Berry", "cherry", "ap", "b", "err", "Z"]

    static func recipe(depth: Int, _ random: inout SplitMix64) -> Recipe {
        if depth > 0, Int.random(in: 0..<3, using: &random) == 0 {
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return .and(recipe(depth: depth - 1, &random), recipe(depth: depth - 1, &random))
            case 1: return .or(recipe(depth: depth - 1, &random), recipe(depth: depth - 1, &random))
            default: return .not(recipe(depth: depth - 1, &random))
            }
        }
        let word = words.randomElement(using: &random)!
        let operators: [PredicateExpressions.ComparisonOperator?] = [nil, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual]
        switch Int.random(in: 0..<13, using: &random) {
        case 0: return .quantity(operators.randomElement(using: &random)!, Int.random(in: 0...10, using: &random))
        case 1: return .quantityNotEqual(Int.random(in: 0...10, using: &random))
        case 2: return .priceAbove(Double(Int.random(in: 0...100, using: &random)) / 10)
        case 3: return .nameEquals(word)
        case 4: return .nameStarts(word)
        case 5: return .nameContains(word)
        case 6: return .inStock
        case 7: return .noteIsNil
        case 8: return .noteOrEmptyEquals(Bool.random(using: &random) ? "" : word)
        case 9: return .tagsContain(word)
        case 10: return .someTagStarts(word)
        case 11:
            let low = Int.random(in: 0...8, using: &random)
            return .quantityIn(low...(low + Int.random(in: 0...3, using: &random)))
        default: return .inStock
        }
    }

    static func build(_ recipe: Recipe, _ subject: Subject) -> Condition {
        let quantity = PredicateExpressions.KeyPath(root: subject, keyPath: \Gizmo.quantity)
        let name = PredicateExpressions.KeyPath(root: subject, keyPath: \Gizmo.name)
        let note = PredicateExpressions.KeyPath(root: subject, keyPath: \Gizmo.note)
        let tags = PredicateExpressions.KeyPath(root: subject, keyPath: \Gizmo.tags)
        switch recipe {
        case .quantity(nil, let value):
            return PredicateExpressions.Equal(lhs: quantity, rhs: PredicateExpressions.Value(value))
        case .quantity(let op?, let value):
            return PredicateExpressions.Comparison(lhs: quantity, rhs: PredicateExpressions.Value(value), op: op)
        case .quantityNotEqual(let value):
            return PredicateExpressions.NotEqual(lhs: quantity, rhs: PredicateExpressions.Value(value))
        case .priceAbove(let value):
            return PredicateExpressions.Comparison(
                lhs: PredicateExpressions.KeyPath(root: subject, keyPath: \Gizmo.price), rhs: PredicateExpressions.Value(value), op: .greaterThan)
        case .nameEquals(let word):
            return PredicateExpressions.Equal(lhs: name, rhs: PredicateExpressions.Value(word))
        case .nameStarts(let word):
            return PredicateExpressions.SequenceStartsWith(base: name, prefix: PredicateExpressions.Value(word))
        case .nameContains(let word):
            return PredicateExpressions.CollectionContainsCollection(base: name, other: PredicateExpressions.Value(word))
        case .inStock:
            return PredicateExpressions.KeyPath(root: subject, keyPath: \Gizmo.inStock)
        case .noteIsNil:
            return PredicateExpressions.Equal(lhs: note, rhs: PredicateExpressions.NilLiteral<String>())
        case .noteOrEmptyEquals(let word):
            return PredicateExpressions.Equal(
                lhs: PredicateExpressions.NilCoalesce(lhs: note, rhs: PredicateExpressions.Value("")), rhs: PredicateExpressions.Value(word))
        case .tagsContain(let word):
            return PredicateExpressions.SequenceContains(sequence: tags, element: PredicateExpressions.Value(word))
        case .someTagStarts(let word):
            return PredicateExpressions.build_contains(tags) { tag in
                PredicateExpressions.SequenceStartsWith(base: tag, prefix: PredicateExpressions.Value(word))
            }
        case .quantityIn(let range):
            return PredicateExpressions.RangeExpressionContains(range: PredicateExpressions.Value(range), element: quantity)
        case .and(let left, let right):
            return conjunction(build(left, subject), build(right, subject))
        case .or(let left, let right):
            return disjunction(build(left, subject), build(right, subject))
        case .not(let inner):
            return negation(build(inner, subject))
        }
    }

    static func conjunction<L: StandardPredicateExpression<Bool>, R: StandardPredicateExpression<Bool>>(_ left: L, _ right: R) -> Condition {
        PredicateExpressions.Conjunction(lhs: left, rhs: right)
    }

    static func disjunction<L: StandardPredicateExpression<Bool>, R: StandardPredicateExpression<Bool>>(_ left: L, _ right: R) -> Condition {
        PredicateExpressions.Disjunction(lhs: left, rhs: right)
    }

    static func negation<W: StandardPredicateExpression<Bool>>(_ wrapped: W) -> Condition {
        PredicateExpressions.Negation(wrapped)
    }

    static func gizmos(_ random: inout SplitMix64) -> [Gizmo] {
        (0..<60).map { index in
            Gizmo(
                id: "g\(index)", name: words.randomElement(using: &random)! + (Bool.random(using: &random) ? "" : words.randomElement(using: &random)!),
                quantity: Int.random(in: 0...10, using: &random), price: Double(Int.random(in: 0...100, using: &random)) / 10,
                inStock: Bool.random(using: &random), note: Bool.random(using: &random) ? nil : words.randomElement(using: &random)!,
                tags: (0..<Int.random(in: 0...3, using: &random)).map { _ in words.randomElement(using: &random)! })
        }
    }

    @Test(arguments: TestEngine.allCases)
    func foundationAndTheStoreSelectTheSameModels(engine: TestEngine) throws {
        var random = SplitMix64(seed: 0x0F0D_1234)
        let gizmos = Self.gizmos(&random)
        let context = ModelContext(store: try engine.makeStore())
        for gizmo in gizmos { try context.insert(gizmo) }
        try context.save()
        for trial in 0..<150 {
            let recipe = Self.recipe(depth: 3, &random)
            let predicate = Predicate<Gizmo> { subject in Self.build(recipe, subject) }
            let expected = try gizmos.filter { try predicate.evaluate($0) }.map(\.id).sorted()
            let fetched = try context.fetch(FetchDescriptor(predicate: predicate)).map(\.id).sorted()
            let format = try FormatPredicate(predicate).predicateFormat
            #expect(fetched == expected, "trial \(trial): \(recipe) as \(format)")
        }
    }

    @Test(arguments: TestEngine.allCases)
    func fetchDescriptorsSortLimitCountAndIdentify(engine: TestEngine) async throws {
        var random = SplitMix64(seed: 42)
        let gizmos = Self.gizmos(&random)
        let context = ModelContext(store: try engine.makeStore())
        for gizmo in gizmos { try context.insert(gizmo) }
        try await context.save()
        var descriptor = FetchDescriptor<Gizmo>(
            predicate: #Predicate { $0.quantity > 3 && $0.inStock },
            sortBy: [SortDescriptor(\Gizmo.quantity, order: .reverse), SortDescriptor(\Gizmo.price)])
        let all = gizmos.filter { $0.quantity > 3 && $0.inStock }
            .sorted { ($0.quantity, -$0.price, $0.id) > ($1.quantity, -$1.price, $1.id) }
        #expect(try await context.fetch(descriptor).map(\.quantity) == all.map(\.quantity))
        #expect(try await context.fetchCount(descriptor) == all.count)
        descriptor.fetchLimit = 3
        descriptor.fetchOffset = 1
        let page = try await context.fetch(descriptor)
        #expect(page.count == min(3, max(0, all.count - 1)))
        #expect(page.map(\.quantity) == Array(all.dropFirst().prefix(3)).map(\.quantity))
        #expect(try await context.fetchIdentifiers(descriptor).map(\.recordName) == page.map(\.id))
        var enumerated: [String] = []
        try await context.enumerate(descriptor, batchSize: 2) { enumerated.append($0.id) }
        #expect(enumerated == page.map(\.id))
        // Only the properties to fetch are read: the note (optional) is nil for every model.
        var projected = FetchDescriptor<Gizmo>(predicate: #Predicate { $0.note != nil })
        projected.propertiesToFetch = [\Gizmo.name, \Gizmo.quantity, \Gizmo.price, \Gizmo.inStock, \Gizmo.tags]
        let withoutNotes = try await context.fetch(projected)
        #expect(withoutNotes.count == gizmos.filter { $0.note != nil }.count)
        #expect(withoutNotes.allSatisfy { $0.note == nil })
        // The builder takes a #Predicate and a SortDescriptor too.
        let built = try await Gizmo.query(in: context).where(#Predicate<Gizmo> { $0.quantity > 3 }).where([.inStock: true])
            .order(by: SortDescriptor(\Gizmo.quantity, order: .reverse)).order(by: SortDescriptor(\Gizmo.price)).all()
        #expect(built.map(\.quantity) == all.map(\.quantity))
    }
}

/// Where Swift's meaning and NSPredicate's could differ, the converted predicate keeps Swift's:
/// each rule, with the values that would show a difference, answered alike by Foundation and the store.
@Suite("Foundation #Predicate: Swift's meaning kept")
struct PredicateSemanticsTests {
    private func agree(_ predicate: Predicate<Gizmo>, _ gizmos: [Gizmo], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for engine in TestEngine.allCases {
            let context = ModelContext(store: try engine.makeStore())
            for gizmo in gizmos { try context.insert(gizmo) }
            try context.save()
            let expected = try gizmos.filter { try predicate.evaluate($0) }.map(\.id).sorted()
            let fetched = try context.fetch(FetchDescriptor(predicate: predicate)).map(\.id).sorted()
            #expect(fetched == expected, "\(engine)", sourceLocation: sourceLocation)
        }
    }

    static func gizmo(_ id: String, name: String = "", quantity: Int = 0, note: String? = nil, tags: [String] = []) -> Gizmo {
        Gizmo(id: id, name: name, quantity: quantity, price: 0, inStock: false, note: note, tags: tags)
    }

    @Test func nilComparesAsSwiftOptionalsDo() throws {
        let gizmos = [Self.gizmo("a", note: nil), Self.gizmo("b", note: "x"), Self.gizmo("c", note: "y")]
        try agree(#Predicate { $0.note == nil }, gizmos)
        try agree(#Predicate { $0.note != nil }, gizmos)
        try agree(#Predicate { $0.note != "x" }, gizmos)       // nil != "x" is true in Swift
        try agree(#Predicate { $0.note == "x" }, gizmos)
        try agree(#Predicate { ($0.note ?? "x") == "x" }, gizmos)
    }

    @Test func stringsCompareExactlyAndByCase() throws {
        let gizmos = [Self.gizmo("a", name: "École"), Self.gizmo("b", name: "ecole"), Self.gizmo("c", name: "Ecole"), Self.gizmo("d", name: "")]
        try agree(#Predicate { $0.name == "ecole" }, gizmos)
        try agree(#Predicate { $0.name.starts(with: "E") }, gizmos)
        try agree(#Predicate { $0.name.contains("col") }, gizmos)
        try agree(#Predicate { $0.name < "a" }, gizmos)
        try agree(#Predicate { $0.name.isEmpty }, gizmos)
    }

    @Test func integerArithmeticTruncatesAsSwiftDoes() throws {
        let gizmos = (-4...4).map { Self.gizmo("q\($0 + 4)", quantity: $0) }
        try agree(#Predicate { $0.quantity / 3 == -1 }, gizmos)
        try agree(#Predicate { $0.quantity % 3 == -1 }, gizmos)
        try agree(#Predicate { $0.quantity / 2 == 0 }, gizmos)
    }

    @Test func emptyListsAndMembership() throws {
        let gizmos = [Self.gizmo("a"), Self.gizmo("b", tags: ["x"]), Self.gizmo("c", tags: ["x", "y"])]
        try agree(#Predicate { $0.tags.isEmpty }, gizmos)
        try agree(#Predicate { $0.tags.contains("y") }, gizmos)
        try agree(#Predicate { $0.tags.allSatisfy { $0 == "x" } }, gizmos)   // true for an empty list
        try agree(#Predicate { $0.tags.contains { $0 == "x" } }, gizmos)
        try agree(#Predicate { $0.tags.count == 1 }, gizmos)
    }
}
