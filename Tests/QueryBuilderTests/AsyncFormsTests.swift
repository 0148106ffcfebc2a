import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryBuilder
import RecordStore
import Testing

/// The `async` forms of `Query` and `ModelContext`: the same answers as the synchronous forms
/// (which the other suites check in detail), through the engines' async paths.
@Suite("Async forms of Query and ModelContext")
struct AsyncFormsTests {
    @Test(arguments: TestEngine.allCases)
    func resultsMatchTheSynchronousForms(engine: TestEngine) async throws {
        let context = try engine.seededContext()
        let fruit = Item.query(in: context).where([.department: "Fruit"]).order(by: .quantity)
        let all: [Item] = try await fruit.all()
        #expect(all.ids == ["a1", "b2"])
        let first: Item? = try await fruit.first()
        #expect(first?.id == "a1")
        let count: Int = try await fruit.count()
        #expect(count == 2)
        let exists: Bool = try await fruit.where([.quantity: gt(5)]).exists()
        #expect(exists == false)
        let records: [Record] = try await fruit.select("name").records()
        #expect(records.map { $0["name"] } == [.string("Apple"), .string("banana")])
        #expect(records.allSatisfy { Set($0.fields.keys) == ["name"] })
        let plan: QueryPlan = try await fruit.explain()
        #expect(plan.engine == engine.engineName)
    }

    @Test(arguments: TestEngine.allCases)
    func aggregatesMatchTheSynchronousForms(engine: TestEngine) async throws {
        let all = Item.query(in: try engine.seededContext())
        let sum: Value = try await all.sum("quantity")
        let typedSum: Int = try await all.sum(\.quantity)
        let average: Double? = try await all.average(.quantity)
        let least: Value = try await all.min(.name)
        let most: Value = try await all.max("quantity")
        let latest: Date? = try await all.max(\.date)
        let firstDepartment: String? = try await all.min(\.department)
        #expect(sum == .int(12))
        #expect(typedSum == 12)
        #expect(average == 2.4)
        #expect(least == "Apple")
        #expect(most == 4)
        #expect(latest == day(5))
        #expect(firstDepartment == "Fruit")
        let groups: [GroupCount] = try await all.group(by: .department)
        #expect(groups == [
            GroupCount(values: [.null], count: 1), GroupCount(values: ["Fruit"], count: 2),
            GroupCount(values: ["Misc"], count: 1), GroupCount(values: ["Vegetable"], count: 1),
        ])
        let byKeyPath: [GroupCount] = try await all.where([.quantity: 2]).group(by: \.department)
        #expect(byKeyPath == [GroupCount(values: ["Fruit"], count: 1), GroupCount(values: ["Misc"], count: 1)])
    }

    @Test(arguments: TestEngine.allCases)
    func changesThroughTheAsyncForms(engine: TestEngine) async throws {
        let context = try engine.seededContext()
        let items = Item.query(in: context)
        // fetch, update and save
        var carrot = try #require(try await items.fetch("c3"))
        carrot.quantity = 30
        try await context.update(carrot)
        try await context.save()
        #expect(context.hasChanges == false)
        let saved: Item? = try await items.fetch("c3")
        #expect(saved?.quantity == 30)
        // an update of a record the context has not read reads its change tag first
        let other = ModelContext(store: context.store)
        var apple = try #require(try await Item.query(in: other).fetch("a1"))
        let fresh = ModelContext(store: context.store)
        apple.quantity = 10
        try await fresh.update(apple)
        try await fresh.save()
        // a stale update is a conflict, and the pending change stays
        apple.quantity = 11
        try await other.update(apple)
        await #expect(throws: QueryError.modelChangedElsewhere(recordType: "Item", recordName: "a1")) { try await other.save() }
        #expect(other.pendingChangeCount == 1)
        // fetchOrInsert, firstOrInsert, exists(id), delete
        let gadget = try await Gadget.query(in: context).fetchOrInsert("g1")
        #expect(gadget == Gadget(id: "g1", label: "", stock: 0))
        let knob = try await Gadget.query(in: context).where([.label: "knob"]).firstOrInsert()
        #expect(knob == Gadget(id: "unnamed", label: "knob", stock: 0))
        let gadgetExists: Bool = try await Gadget.query(in: context).exists("g1")
        #expect(gadgetExists)
        let deleted: Int = try await items.where([.department: "Fruit"]).delete()
        #expect(deleted == 2)
        let pendingCount: Int = try await items.count()
        #expect(pendingCount == 3)
        let updated: Int = try await items.where([.department: "Misc"]).update([.department: "Other"])
        #expect(updated == 1)
        try await context.save()
        let remaining: [Item] = try await items.order(by: .quantity).all()
        #expect(remaining.ids == ["e5", "d4", "c3"])
        let gadgets: [Gadget] = try await Gadget.query(in: context).order(by: .id).all()
        #expect(gadgets.map(\.id) == ["g1", "unnamed"])
    }
}
