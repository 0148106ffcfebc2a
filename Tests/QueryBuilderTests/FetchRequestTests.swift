import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryBuilder
import RecordStore
import Testing

/// `.fetchRequest`: the store's FetchRequest equivalent to a chain.
@Suite("Query fetchRequest")
struct FetchRequestTests {
    private let context = ModelContext(store: Store.inMemory())

    @Test
    func anEmptyChainFetchesEverything() {
        let request = Item.query(in: context).fetchRequest
        #expect(request.entityName == "Item")
        #expect(request.predicate == nil)
        #expect(request.sortDescriptors == [])
        #expect(request.fetchLimit == 0)
        #expect(request.fetchOffset == 0)
        #expect(request.propertiesToFetch == nil)
        #expect(request.resultType == .records)
        #expect(request.zoneID == .default)
    }

    @Test(arguments: [
        (0, #"(quantity == 1 AND name == "Alice") OR name == "Bob""#),
        (1, "quantity == 1 OR quantity == 3"),
        (2, "quantity BETWEEN {1, 3}"),
        (3, #"name IN {"Alice", "Bob"} AND name CONTAINS[c] "li""#),
        (4, #"quantity >= 1 AND quantity < 3 AND name BEGINSWITH "A""#),
        (5, #"(name == "Alice" AND quantity == 2) OR department == "Misc""#),
    ])
    func thePredicatePrintsAsTheChain(chain: Int, format: String) throws {
        let query: Query<Item> = switch chain {
        case 0: try Item.query(in: context).where("quantity == 1").where("name == %@", "Alice").or("name == %@", "Bob")
        case 1: try Item.query(in: context).where(\.quantity == 1).or(\.quantity == 3)
        case 2: Item.query(in: context).where([.quantity: 1...3])
        case 3: try Item.query(in: context).where([.name: ["Alice", "Bob"]]).where(\.name, .contains("li", .caseInsensitive))
        case 4: Item.query(in: context).where([.quantity: 1..<3]).where(.name, .beginsWith("A"))
        default: try Item.query(in: context).where([.name: "Alice", .quantity: 2]).or([.department: "Misc"])
        }
        #expect(query.fetchRequest.predicate?.predicateFormat == format)
        #expect(query.predicate.predicateFormat == format)
    }

    @Test
    func sortsPagingAndFieldsCarryOver() throws {
        let query = try Item.query(in: ModelContext(store: Store.inMemory(), zone: ZoneID(zoneName: "Archive")))
            .order(by: .quantity, .descending)
            .order(by: "name", .ascending, .localizedStandard)
            .offset(2)
            .limit(3)
            .select(.name, .quantity)
        let request = query.fetchRequest
        #expect(request.sortDescriptors == [Sort("quantity", ascending: false), Sort("name", comparison: .localizedStandard)])
        #expect(request.fetchOffset == 2)
        #expect(request.fetchLimit == 3)
        #expect(request.propertiesToFetch == [.field("name"), .field("quantity")])
        #expect(request.zoneID == ZoneID(zoneName: "Archive"))
        #expect(try query.limit(0).fetchRequest.fetchLimit == 0)
    }

    @Test(arguments: TestEngine.allCases)
    func runningTheRequestGivesTheQuerysRecords(engine: TestEngine) throws {
        let context = try engine.seededContext()
        let query = try Item.query(in: context)
            .where([.quantity: gte(2)])
            .order(by: .quantity).order(by: .name, .descending)
            .offset(1).limit(2)
            .select(.name)
        let fetched = try context.store.fetch(query.fetchRequest).records
        #expect(fetched.map(\.recordID.recordName) == ["e5", "c3"])
        #expect(fetched.map(\.fields) == [["name": .string("Item 2")], ["name": .string("Carrot")]])
        #expect(try query.records() == fetched)
        #expect(try context.store.count(for: query.fetchRequest) == 2)
        #expect(try Item.query(in: context).limit(0).count() == 5)
        #expect(try Item.query(in: context).limit(0).all().count == 5)
    }
}
