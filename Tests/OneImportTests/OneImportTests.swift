import Foundation
import QueryModel
import Testing

// Issue #28: one import per use. This target imports only `QueryModel` (and Foundation, for
// `Date`), and is built without the package's `package` access, as a user's package is: the
// macro, the builder, the store and the predicate language all come through it.

@QueryModel
struct Gadget: RecordModel, Identifiable {
    var id: String
    var label: String
    var stock: Int
    var added: Date
}

@Suite("One import gives the macro, the builder, the store and the language")
struct OneImportTests {
    @Test("A model saved, queried with a format string, a key path and #Predicate, and read back as records")
    func everythingThroughOneImport() throws {
        let store = Store.inMemory()                                    // RecordStore
        let context = ModelContext(store: store)                        // QueryBuilder
        for (index, label) in ["knob", "dial", "lever"].enumerated() {
            try context.insert(Gadget(id: "g\(index)", label: label, stock: index * 5, added: Date(timeIntervalSince1970: 0)))
        }
        try context.insert(Gadget(id: "g1", label: "dial", stock: 7, added: Date(timeIntervalSince1970: 0)))   // an upsert
        try context.save()

        #expect(try Gadget.query(in: context).where("stock > 4").order(by: \.stock).all().map(\.label) == ["dial", "lever"])
        #expect(try context.fetch(FetchDescriptor<Gadget>(predicate: #Predicate { $0.stock == 0 })).map(\.id) == ["g0"])
        let predicate = try FormatPredicate(format: "label BEGINSWITH %@", "d")   // PredicateLanguage
        let records = try store.records(ofType: "Gadget", matching: predicate)
        #expect(records.map(\.recordID.recordName) == ["g1"])
        #expect(records.first?["stock"] == Value.int(7))
        #expect(Gadget.Attribute.allCases == [.id, .label, .stock, .added])
    }
}
