import EngineTestSupport
import Foundation
import QueryBuilder
import RecordStore
import Testing

extension TestEngine {
    /// A context over a new store holding the fixture items (saved).
    func seededContext() throws -> ModelContext {
        let context = ModelContext(store: try makeStore())
        for item in fixtureItems { try context.insert(item) }
        try context.save()
        return context
    }

    /// Two contexts over one seeded store: `second` read an item (the stale model and the change
    /// tag it read are returned), then `first` changed the item's quantity and saved.
    func contextsWithStaleRead(of id: String, changingQuantityTo quantity: Int) throws
        -> (first: ModelContext, second: ModelContext, stale: Item, readTag: String?) {
        let first = try seededContext()
        let second = ModelContext(store: first.store)
        let stale = try #require(try Item.query(in: second).fetch(id))
        let readTag = try first.store.record(for: RecordID(recordName: id))?.recordChangeTag
        var ours = try #require(try Item.query(in: first).fetch(id))
        ours.quantity = quantity
        try first.update(ours)
        try first.save()
        return (first, second, stale, readTag)
    }
}

extension Array where Element: Identifiable {
    /// The ids, in order.
    var ids: [Element.ID] { map(\.id) }
}
