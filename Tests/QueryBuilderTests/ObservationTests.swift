import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryBuilder
import RecordStore
import Testing

/// `Query.observe()`: the models `all()` would answer, after every commit and every change of
/// the context's pending changes, with the change set, on every engine.
@Suite("Query observation", .timeLimit(.minutes(10)))
struct ObservationTests {
    /// Checks a change against the one before and `all()`, and returns its ids.
    private func checked(_ change: ModelResultsChange<Item>?, after previous: [Item], query: Query<Item>) async throws -> [Item] {
        let change = try #require(change)
        #expect(change.models == (try await query.all()))
        if change.kind == .changed {
            let removed = Set(change.difference.deletions + change.difference.moves.map(\.from))
            var ids = previous.indices.filter { !removed.contains($0) }.map { previous[$0].id }
            let placed = (change.difference.insertions.map { ($0, change.models[$0].id) } + change.difference.moves.map { ($0.to, previous[$0.from].id) })
                .sorted { $0.0 < $1.0 }
            for (position, id) in placed { ids.insert(id, at: position) }
            #expect(ids == change.models.map(\.id))
        }
        return change.models
    }

    @Test(arguments: TestEngine.allCases)
    func observationFollowsCommitsAndPendingChanges(engine: TestEngine) async throws {
        let context = try engine.seededContext()
        let query = Item.query(in: context).where([.quantity: gt(1)]).order(by: .quantity).order(by: .name)
        var iterator = query.observe().makeAsyncIterator()
        var models = try await checked(try await iterator.next(), after: [], query: query)
        #expect(models.map(\.id) == ["e5", "b2", "c3", "d4"])

        // A pending insert shows up, as in all().
        try context.insert(Item(id: "f6", name: "Fig", quantity: 3, date: day(6), department: "Fruit"))
        var change = try await iterator.next()
        models = try await checked(change, after: models, query: query)
        #expect(models.map(\.id) == ["e5", "b2", "c3", "f6", "d4"])
        #expect(change?.difference.insertions == [3])

        // Saving it changes nothing shown; another context's commit does.
        try await context.save()
        let other = ModelContext(store: context.store)
        var carrot = try #require(try await Item.query(in: other).fetch("c3"))
        carrot.quantity = 0
        try await other.update(carrot)
        try await other.save()
        change = try await iterator.next()
        models = try await checked(change, after: models, query: query)
        #expect(models.map(\.id) == ["e5", "b2", "f6", "d4"])
        #expect(change?.difference.deletions == [2])

        // A pending delete, then a rollback.
        try context.delete(fixtureItems[3])
        models = try await checked(try await iterator.next(), after: models, query: query)
        #expect(models.map(\.id) == ["e5", "b2", "f6"])
        context.rollback()
        models = try await checked(try await iterator.next(), after: models, query: query)
        #expect(models.map(\.id) == ["e5", "b2", "f6", "d4"])
    }

    @Test(arguments: TestEngine.allCases)
    func aLimitedObservationWidensForPendingChanges(engine: TestEngine) async throws {
        let context = try engine.seededContext()
        let query = try Item.query(in: context).order(by: .quantity).order(by: .name).limit(2)
        var iterator = query.observe().makeAsyncIterator()
        var models = try await checked(try await iterator.next(), after: [], query: query)
        #expect(models.map(\.id) == ["a1", "e5"])
        // Two pending deletions: the window refills from the store's records beyond it.
        try context.delete(fixtureItems[0])
        try context.delete(fixtureItems[1])
        for _ in 0..<2 where models.map(\.id) != ["e5", "c3"] {
            models = try await checked(try await iterator.next(), after: models, query: query)
        }
        #expect(models.map(\.id) == ["e5", "c3"])
    }

    @Test(arguments: TestEngine.allCases)
    func aFetchDescriptorIsObserved(engine: TestEngine) async throws {
        let context = try engine.seededContext()
        let descriptor = FetchDescriptor<Item>(predicate: #Predicate { $0.quantity > 2 }, sortBy: [SortDescriptor(\Item.quantity)])
        var iterator = try context.observe(descriptor).makeAsyncIterator()
        #expect(try await iterator.next()?.models == (try await context.fetch(descriptor)))
        try context.insert(Item(id: "f6", name: "Fig", quantity: 5, date: day(6), department: nil))
        let change = try #require(try await iterator.next())
        #expect(change.models.map(\.id) == ["c3", "d4", "f6"])
        #expect(change.difference.insertions == [2])
    }
}
