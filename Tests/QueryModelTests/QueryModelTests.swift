import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryModel
import RecordStore
import Testing

@QueryModel
struct Gadget: RecordModel, Identifiable, Equatable {
    var id: String
    var label: String
    var stock: Int
    var `default`: Bool = false
    var note: String? {
        didSet {}
    }
    static let shelf = "A"
    var twice: Int { stock * 2 }
}

/// `@QueryModel`: the table it writes names every stored property, and key paths then work in
/// `#Predicate`, `SortDescriptor` and the builder, on every engine.
@Suite("@QueryModel")
struct QueryModelTests {
    @Test func theTableNamesEveryStoredProperty() {
        #expect(Gadget.Attribute.allCases.map(\.rawValue) == ["id", "label", "stock", "default", "note"])
        #expect(Gadget.attributeKeyPaths[\Gadget.stock] == .stock)
        #expect(Gadget.attributeKeyPaths[\Gadget.note] == .note)
        #expect(Gadget.attributeKeyPaths.count == 5)
        #expect(Gadget.fieldName(for: .default) == "default")
    }

    @Test(arguments: TestEngine.allCases)
    func keyPathsNameFieldsInPredicatesAndSorts(engine: TestEngine) throws {
        let context = ModelContext(store: try engine.makeStore())
        for (index, label) in ["pin", "nut", "bolt", "gear"].enumerated() {
            try context.insert(Gadget(id: "g\(index)", label: label, stock: index * 10, note: index.isMultiple(of: 2) ? "even" : nil))
        }
        try context.save()
        #expect(try FormatPredicate(#Predicate<Gadget> { $0.stock >= 10 && $0.note != nil }).predicateFormat == "stock >= 10 AND note != nil")
        let found = try context.fetch(FetchDescriptor<Gadget>(
            predicate: #Predicate { $0.stock >= 10 || $0.label.starts(with: "p") }, sortBy: [SortDescriptor(\Gadget.stock, order: .reverse)]))
        #expect(found.map(\.label) == ["gear", "bolt", "nut", "pin"])
        #expect(try Gadget.query(in: context).where(\.label, .beginsWith("b")).all().map(\.id) == ["g2"])
    }
}
