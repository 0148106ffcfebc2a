import Foundation
import PredicateLanguage
import QueryBuilder

/// The model most tests query: the `Entity` of the Query package's own tests.
struct Item: Queryable, Identifiable, Equatable {
    var id: String
    var name: String
    var quantity: Int
    var date: Date
    var department: String?

    enum Attribute: CaseIterable {
        case name, quantity, date, department
    }

    static var attributeKeyPaths: [PartialKeyPath<Item>: Attribute] {
        [\.name: .name, \.quantity: .quantity, \.date: .date, \.department: .department]
    }
}

/// A model that can start empty, for `firstOrInsert()` with only some fields fixed.
struct Gadget: Queryable, Identifiable, DefaultInitializable, Equatable {
    var id: String
    var label: String
    var stock: Int

    init() {
        self.init(id: "unnamed", label: "", stock: 0)
    }

    init(id: String, label: String, stock: Int) {
        self.id = id
        self.label = label
        self.stock = stock
    }

    enum Attribute: String, CaseIterable {
        case id, label, stock = "stock"
    }

    static var attributeKeyPaths: [PartialKeyPath<Gadget>: Attribute] { [\.id: .id, \.label: .label, \.stock: .stock] }
}

/// A model that is not Identifiable: it keeps the generated record name in `recordName`.
struct Note: RecordModel, Equatable {
    var recordName: String?
    var text: String
}

/// Midnight UTC of a day in November 2023 (whole seconds: every engine keeps them exactly).
func day(_ number: Int) -> Date {
    Date(timeIntervalSince1970: 1_700_000_000 + Double(number) * 86_400)
}

/// The five items of the shared fixture.
let fixtureItems: [Item] = [
    Item(id: "a1", name: "Apple", quantity: 1, date: day(1), department: "Fruit"),
    Item(id: "b2", name: "banana", quantity: 2, date: day(2), department: "Fruit"),
    Item(id: "c3", name: "Carrot", quantity: 3, date: day(3), department: "Vegetable"),
    Item(id: "d4", name: "item 10", quantity: 4, date: day(4), department: nil),
    Item(id: "e5", name: "Item 2", quantity: 2, date: day(5), department: "Misc"),
]
