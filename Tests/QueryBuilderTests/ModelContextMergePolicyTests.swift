import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryBuilder
import RecordStore
import Testing

/// A context's merge policy on a uniqueness constraint (items' names unique), on every engine:
/// the same conflicting insert under each policy.
@Suite("ModelContext merge policies")
struct ModelContextMergePolicyTests {
    /// A store whose items' names are unique, holding a1 (Apple, 1, Fruit), and a context over it.
    static func context(_ engine: TestEngine) throws -> ModelContext {
        let store = try engine.makeStore()
        try store.define([RecordTypeSchema(
            name: "Item",
            fields: [
                FieldSchema(name: "name", type: .string), FieldSchema(name: "quantity", type: .int64), FieldSchema(name: "date", type: .date),
                FieldSchema(name: "department", type: .string),
            ],
            uniquenessConstraints: [["name"]])])
        let context = ModelContext(store: store)
        try context.insert(Item(id: "a1", name: "Apple", quantity: 1, date: day(0), department: "Fruit"))
        try context.save()
        return context
    }

    @Test("Every merge policy on an insert with a stored item's name", arguments: TestEngine.allCases)
    func everyPolicy(engine: TestEngine) throws {
        let expected: [MergePolicy: Item] = [
            .mergeByPropertyObjectTrump: Item(id: "a1", name: "Apple", quantity: 5, date: day(1), department: "Fruit"),
            .mergeByPropertyStoreTrump: Item(id: "a1", name: "Apple", quantity: 1, date: day(0), department: "Fruit"),
            .overwrite: Item(id: "a1", name: "Apple", quantity: 5, date: day(1), department: nil),
            .rollback: Item(id: "a1", name: "Apple", quantity: 1, date: day(0), department: "Fruit"),
        ]
        for policy in MergePolicy.allCases {
            let context = try Self.context(engine)
            #expect(context.mergePolicy == .error)
            context.mergePolicy = policy
            try context.insert(Item(id: "a2", name: "Apple", quantity: 5, date: day(1), department: nil))
            if policy == .error {
                do {
                    try context.save()
                    Issue.record("the conflicting insert saved")
                } catch let error as RecordStoreError {
                    guard case .constraintConflict(let conflicts) = error else {
                        Issue.record("unexpected error: \(error)")
                        continue
                    }
                    #expect(conflicts.map { "\($0.saving.recordName) \($0.existing.recordName) \($0.constraint)" } == ["a2 a1 [\"name\"]"])
                }
                // Nothing written; the insert stays pending.
                #expect(context.hasChanges == true)
                #expect(try Item.query(in: context).includesPendingChanges(false).all().map(\.id) == ["a1"])
                continue
            }
            try context.save()
            #expect(context.hasChanges == false, "\(policy)")
            #expect(try Item.query(in: context).all() == [expected[policy]].compactMap { $0 }, "\(policy)")
            // The context saves over the merged record's new version.
            var apple = try #require(try Item.query(in: context).fetch("a1"))
            apple.quantity = 9
            try context.update(apple)
            try context.save()
            #expect(try Item.query(in: context).fetch("a1")?.quantity == 9, "\(policy)")
        }
    }
}
