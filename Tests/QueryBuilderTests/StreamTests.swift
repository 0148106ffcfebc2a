import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryBuilder
import RecordStore
import Testing

/// `.stream()`: every match in order, in batches, with pending changes merged, on both engines.
@Suite("Query stream")
struct StreamTests {
    /// The ids a stream yields, in order.
    private func streamedIDs(_ stream: ModelStream<Item>) async throws -> [String] {
        var ids: [String] = []
        for try await item in stream { ids.append(item.id) }
        return ids
    }

    @Test(arguments: TestEngine.allCases)
    func streamsEveryMatchInOrderAcrossBatches(engine: TestEngine) async throws {
        let context = try engine.seededContext()
        let byQuantity = Item.query(in: context).order(by: .quantity)
        #expect(try await streamedIDs(byQuantity.stream(batchSize: 2)) == ["a1", "b2", "e5", "c3", "d4"])
        #expect(try await streamedIDs(byQuantity.stream(batchSize: 1)) == ["a1", "b2", "e5", "c3", "d4"])
        #expect(try await streamedIDs(byQuantity.stream(batchSize: 0)) == ["a1", "b2", "e5", "c3", "d4"])
        #expect(try await streamedIDs(byQuantity.offset(1).limit(3).stream(batchSize: 2)) == ["b2", "e5", "c3"])
        let larger = try Item.query(in: context).where([.quantity: gt(1)]).order(by: \.quantity, .descending)
        #expect(try await streamedIDs(larger.stream(batchSize: 3)) == ["d4", "c3", "b2", "e5"])
        #expect(try await streamedIDs(Item.query(in: context).where([.quantity: 100]).stream()) == [])
    }

    @Test(arguments: TestEngine.allCases)
    func streamMergesPendingChangesAsAllDoes(engine: TestEngine) async throws {
        let context = try engine.seededContext()
        try context.insert(Item(id: "f6", name: "Fig", quantity: 2, date: day(0), department: "Fruit"))
        var carrot = try #require(try await Item.query(in: context).fetch("c3"))
        carrot.quantity = 0
        try await context.update(carrot)
        try context.delete(fixtureItems[0])
        let byQuantity = Item.query(in: context).order(by: .quantity)
        let expected = ["c3", "b2", "e5", "f6", "d4"]
        #expect(try await byQuantity.all().ids == expected)
        #expect(try await streamedIDs(byQuantity.stream(batchSize: 2)) == expected)
        #expect(try await streamedIDs(byQuantity.offset(1).limit(3).stream(batchSize: 1)) == ["b2", "e5", "f6"])
        #expect(try await streamedIDs(byQuantity.where([.quantity: 2]).stream(batchSize: 1)) == ["b2", "e5", "f6"])
        #expect(try await streamedIDs(byQuantity.includesPendingChanges(false).stream(batchSize: 2)) == ["a1", "b2", "e5", "c3", "d4"])
        var updated: [Item] = []
        for try await item in byQuantity.stream(batchSize: 2) where item.id == "c3" { updated.append(item) }
        #expect(updated == [Item(id: "c3", name: "Carrot", quantity: 0, date: day(3), department: "Vegetable")])
    }

    @Test(arguments: TestEngine.allCases)
    func pendingChangesAreCopiedWhenIterationStarts(engine: TestEngine) async throws {
        let context = try engine.seededContext()
        let stream = Item.query(in: context).order(by: .quantity).stream(batchSize: 2)
        try context.insert(Item(id: "z0", name: "Zucchini", quantity: 0, date: day(0)))
        var iterator = stream.makeAsyncIterator()
        #expect(try await iterator.next()?.id == "z0")
        try context.insert(Item(id: "y9", name: "Yam", quantity: 9, date: day(9)))
        var rest: [String] = []
        while let item = try await iterator.next() { rest.append(item.id) }
        #expect(rest == ["a1", "b2", "e5", "c3", "d4"])
    }

    @Test(arguments: TestEngine.allCases)
    func streamedModelsCanBeUpdated(engine: TestEngine) async throws {
        let context = try engine.seededContext()
        for try await var item in Item.query(in: context).where([.department: "Fruit"]).stream(batchSize: 1) {
            item.quantity += 10
            try await context.update(item)
        }
        try await context.save()
        #expect(try await Item.query(in: context).where([.quantity: gt(10)]).order(by: .quantity).all().ids == ["a1", "b2"])
    }
}
