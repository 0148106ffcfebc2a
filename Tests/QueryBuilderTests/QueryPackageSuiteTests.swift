import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryBuilder
import RecordStore
import Testing

/// The behaviours of the Query package's own test suite, on both engines.
@Suite("Query package suite")
struct QueryPackageSuiteTests {
    @Test(arguments: TestEngine.allCases)
    func allRecords(engine: TestEngine) throws {
        let context = try engine.seededContext()
        #expect(try Item.query(in: context).all().ids == ["a1", "b2", "c3", "d4", "e5"])
        #expect(try Item.query(in: context).all() == fixtureItems)
    }

    @Test(arguments: TestEngine.allCases)
    func count(engine: TestEngine) throws {
        let context = try engine.seededContext()
        #expect(try Item.query(in: context).count() == 5)
        #expect(try Item.query(in: context).where("quantity == 2").count() == 2)
        #expect(try Item.query(in: context).where("quantity == 99").count() == 0)
    }

    @Test(arguments: TestEngine.allCases)
    func exists(engine: TestEngine) throws {
        let context = try engine.seededContext()
        #expect(try Item.query(in: context).where("name == %@", "Apple").exists() == true)
        #expect(try Item.query(in: context).where("name == %@", "Durian").exists() == false)
        #expect(try Item.query(in: context).exists("c3") == true)
        #expect(try Item.query(in: context).exists("zz") == false)
        #expect(try Item.query(in: context).where([.quantity: 1]).exists("c3") == false)
    }

    @Test(arguments: TestEngine.allCases)
    func fetch(engine: TestEngine) throws {
        let context = try engine.seededContext()
        #expect(try Item.query(in: context).fetch("b2") == fixtureItems[1])
        #expect(try Item.query(in: context).fetch("zz") == nil)
    }

    @Test(arguments: TestEngine.allCases)
    func fetchOrInsert(engine: TestEngine) throws {
        let context = try engine.seededContext()
        #expect(try Gadget.query(in: context).fetchOrInsert("g1") == Gadget(id: "g1", label: "", stock: 0))
        #expect(context.pendingChangeCount == 1)
        try context.save()
        #expect(try Gadget.query(in: context).fetchOrInsert("g1") == Gadget(id: "g1", label: "", stock: 0))
        #expect(context.hasChanges == false)
        #expect(try Gadget.query(in: context).count() == 1)
        // Existing Item: fetched, nothing inserted.
        #expect(try Item.query(in: context).fetchOrInsert("a1") == fixtureItems[0])
        // A new Item cannot be made from its id alone (name, quantity and date are required).
        #expect(throws: QueryError.self) { try Item.query(in: context).fetchOrInsert("zz") }
    }

    @Test(arguments: TestEngine.allCases)
    func firstWithResults(engine: TestEngine) throws {
        let context = try engine.seededContext()
        #expect(try Item.query(in: context).where("quantity == 2").order(by: "date").first()?.id == "b2")
        #expect(try Item.query(in: context).where("quantity == 2").order(by: "date", .descending).first()?.id == "e5")
    }

    @Test(arguments: TestEngine.allCases)
    func firstWithoutResults(engine: TestEngine) throws {
        let context = try engine.seededContext()
        #expect(try Item.query(in: context).where("quantity > 100").first() == nil)
    }

    @Test(arguments: TestEngine.allCases)
    func firstOrInsertExisting(engine: TestEngine) throws {
        let context = try engine.seededContext()
        let found = try Item.query(in: context).where([.name: "Apple", .quantity: 1]).firstOrInsert()
        #expect(found == fixtureItems[0])
        #expect(context.hasChanges == false)
    }

    @Test(arguments: TestEngine.allCases)
    func firstOrInsertNew(engine: TestEngine) throws {
        let context = try engine.seededContext()
        let made = try Gadget.query(in: context).where([.label: "Lamp", .stock: 7]).where(\.id == "g9").firstOrInsert()
        #expect(made == Gadget(id: "g9", label: "Lamp", stock: 7))
        #expect(context.pendingChangeCount == 1)
        try context.save()
        #expect(try Gadget.query(in: context).where([.label: "Lamp"]).all() == [made])
        // Asking again finds it instead of inserting.
        #expect(try Gadget.query(in: context).where([.label: "Lamp", .stock: 7]).where(\.id == "g9").firstOrInsert() == made)
        #expect(context.hasChanges == false)
    }

    @Test(arguments: TestEngine.allCases)
    func firstOrInsertTooComplex(engine: TestEngine) throws {
        let context = try engine.seededContext()
        #expect(throws: QueryError.tooComplex(
            reason: "the condition 'missingAttribute == 1' is a format string, not an equality from a dictionary or key path")) {
            try Gadget.query(in: context).where("missingAttribute == 1").firstOrInsert()
        }
        #expect(throws: QueryError.tooComplex(reason: "the condition 'stock < 1' is not a plain equality")) {
            try Gadget.query(in: context).where([.stock: lt(1)]).firstOrInsert()
        }
        #expect(throws: QueryError.tooComplex(reason: "the condition 'stock BETWEEN {1, 3}' is not a plain equality")) {
            try Gadget.query(in: context).where([.stock: 1...3]).firstOrInsert()
        }
        #expect(throws: QueryError.tooComplex(reason: "'.or(...)' makes the values of a new model uncertain")) {
            try Gadget.query(in: context).where([.stock: 1]).or([.stock: 2]).firstOrInsert()
        }
        #expect(throws: QueryError.tooComplex(reason: "the conditions give 'stock' two different values")) {
            try Gadget.query(in: context).where([.stock: 1]).where(\.stock == 2).firstOrInsert()
        }
        #expect(throws: QueryError.tooComplex(
            reason: "a new 'Item' cannot be made from the conditions: Field 'id' of record 'Item/(new)' is missing, and the model's property is not optional")) {
            try Item.query(in: context).where([.name: "Durian"]).firstOrInsert()
        }
        #expect(context.hasChanges == false)
    }

    @Test(arguments: TestEngine.allCases)
    func lessThanWrapper(engine: TestEngine) throws {
        let context = try engine.seededContext()
        let query = Item.query(in: context).where([.quantity: lt(2)])
        #expect(query.predicate.predicateFormat == "quantity < 2")
        #expect(try query.all().ids == ["a1"])
    }

    @Test(arguments: TestEngine.allCases)
    func closedRange(engine: TestEngine) throws {
        let context = try engine.seededContext()
        let query = Item.query(in: context).where([.quantity: 1...3])
        #expect(query.predicate.predicateFormat == "quantity BETWEEN {1, 3}")
        #expect(try query.all().ids == ["a1", "b2", "c3", "e5"])
    }

    @Test(arguments: TestEngine.allCases)
    func halfOpenRange(engine: TestEngine) throws {
        let context = try engine.seededContext()
        let query = Item.query(in: context).where([.quantity: 1..<3])
        #expect(query.predicate.predicateFormat == "quantity >= 1 AND quantity < 3")
        #expect(try query.all().ids == ["a1", "b2", "e5"])
    }

    @Test(arguments: TestEngine.allCases)
    func orWithFormats(engine: TestEngine) throws {
        let context = try engine.seededContext()
        let query = try Item.query(in: context).where("quantity == 1").or("name == %@", "Carrot")
        #expect(query.predicate.predicateFormat == #"quantity == 1 OR name == "Carrot""#)
        #expect(try query.all().ids == ["a1", "c3"])
    }

    @Test(arguments: TestEngine.allCases)
    func orWithDictionaries(engine: TestEngine) throws {
        let context = try engine.seededContext()
        let query = try Item.query(in: context).where([.quantity: 1]).or([.name: "Carrot", .quantity: 3])
        #expect(query.predicate.predicateFormat == #"quantity == 1 OR (name == "Carrot" AND quantity == 3)"#)
        #expect(try query.all().ids == ["a1", "c3"])
    }

    @Test(arguments: TestEngine.allCases)
    func orderWithStringKeys(engine: TestEngine) throws {
        let context = try engine.seededContext()
        #expect(try Item.query(in: context).order(by: "name").all().ids == ["a1", "c3", "e5", "b2", "d4"])
        #expect(try Item.query(in: context).order(by: "name", .descending).all().ids == ["d4", "b2", "e5", "c3", "a1"])
        #expect(try Item.query(in: context).order(by: "name", .ascending, .localizedCaseInsensitive).all().ids
            == ["a1", "b2", "c3", "d4", "e5"])
        #expect(try Item.query(in: context).order(by: "name", .ascending, .localizedStandard).all().ids
            == ["a1", "b2", "c3", "e5", "d4"])
        #expect(try Item.query(in: context).order(by: "quantity", .descending).order(by: "name").all().ids
            == ["d4", "c3", "e5", "b2", "a1"])
        // nil sorts first ascending.
        #expect(try Item.query(in: context).order(by: "department").order(by: "date", .descending).all().ids
            == ["d4", "b2", "a1", "e5", "c3"])
    }

    @Test(arguments: TestEngine.allCases)
    func orderWithAttributes(engine: TestEngine) throws {
        let context = try engine.seededContext()
        #expect(try Item.query(in: context).order(by: .date, .descending).all().ids == ["e5", "d4", "c3", "b2", "a1"])
        #expect(try Item.query(in: context).order(by: .quantity).order(by: .date, .descending).all().ids
            == ["a1", "e5", "b2", "c3", "d4"])
        #expect(try Item.query(in: context).order(by: .name, .ascending, .localizedStandard).all().ids
            == ["a1", "b2", "c3", "e5", "d4"])
    }

    @Test(arguments: TestEngine.allCases)
    func orderWithKeyPaths(engine: TestEngine) throws {
        let context = try engine.seededContext()
        #expect(try Item.query(in: context).order(by: \.date).all().ids == ["a1", "b2", "c3", "d4", "e5"])
        #expect(try Item.query(in: context).order(by: \.quantity, .descending).order(by: \.name).all().ids
            == ["d4", "c3", "e5", "b2", "a1"])
        #expect(try Item.query(in: context).order(by: \.name, .descending, .localizedCaseInsensitive).all().ids
            == ["e5", "d4", "c3", "b2", "a1"])
    }

    @Test(arguments: TestEngine.allCases)
    func whereWithFormatAndArguments(engine: TestEngine) throws {
        let context = try engine.seededContext()
        #expect(try Item.query(in: context).where("quantity == 1").all().ids == ["a1"])
        #expect(try Item.query(in: context).where("quantity == %d", 3).all().ids == ["c3"])
        #expect(try Item.query(in: context).where("name == %@", "banana").all().ids == ["b2"])
        #expect(try Item.query(in: context).where("%K == %@", "name", "Carrot").all().ids == ["c3"])
        #expect(try Item.query(in: context).where("date > %@", day(3)).all().ids == ["d4", "e5"])
        #expect(try Item.query(in: context).where("department == %@", nil).all().ids == ["d4"])
    }

    @Test(arguments: TestEngine.allCases)
    func dictionaryWithInts(engine: TestEngine) throws {
        let context = try engine.seededContext()
        #expect(try Item.query(in: context).where([.quantity: 2]).all().ids == ["b2", "e5"])
        #expect(try Item.query(in: context).where([.quantity: [1, 3]]).all().ids == ["a1", "c3"])
    }

    @Test(arguments: TestEngine.allCases)
    func dictionaryWithInequalities(engine: TestEngine) throws {
        let context = try engine.seededContext()
        #expect(try Item.query(in: context).where([.quantity: lt(2)]).all().ids == ["a1"])
        #expect(try Item.query(in: context).where([.quantity: lte(2)]).all().ids == ["a1", "b2", "e5"])
        #expect(try Item.query(in: context).where([.quantity: gt(2)]).all().ids == ["c3", "d4"])
        #expect(try Item.query(in: context).where([.quantity: gte(3)]).all().ids == ["c3", "d4"])
        #expect(try Item.query(in: context).where([.quantity: ne(2)]).all().ids == ["a1", "c3", "d4"])
        #expect(try Item.query(in: context).where([.date: lt(day(2))]).all().ids == ["a1"])
    }

    @Test(arguments: TestEngine.allCases)
    func dictionaryWithOpenAndClosedRanges(engine: TestEngine) throws {
        let context = try engine.seededContext()
        #expect(try Item.query(in: context).where([.quantity: 2...4]).all().ids == ["b2", "c3", "d4", "e5"])
        #expect(try Item.query(in: context).where([.quantity: 2..<4]).all().ids == ["b2", "c3", "e5"])
        #expect(try Item.query(in: context).where([.quantity: 3...]).all().ids == ["c3", "d4"])
        #expect(try Item.query(in: context).where([.quantity: ...2]).all().ids == ["a1", "b2", "e5"])
        #expect(try Item.query(in: context).where([.quantity: ..<2]).all().ids == ["a1"])
        #expect(try Item.query(in: context).where([.date: day(2)...day(3)]).all().ids == ["b2", "c3"])
        #expect(try Item.query(in: context).where([.name: "A"..<"C"]).all().ids == ["a1"])
    }

    @Test(arguments: TestEngine.allCases)
    func dictionaryWithStrings(engine: TestEngine) throws {
        let context = try engine.seededContext()
        #expect(try Item.query(in: context).where([.name: "Apple"]).all().ids == ["a1"])
        #expect(try Item.query(in: context).where([.department: "Fruit"]).all().ids == ["a1", "b2"])
        #expect(try Item.query(in: context).where([.name: ["Apple", "Carrot"]]).all().ids == ["a1", "c3"])
        #expect(try Item.query(in: context).where([.name: "apple"]).all().ids == [])
    }

    @Test(arguments: TestEngine.allCases)
    func multiplePredicates(engine: TestEngine) throws {
        let context = try engine.seededContext()
        let query = try Item.query(in: context).where("quantity == 2").where("department == %@", "Fruit")
        #expect(query.predicate.predicateFormat == #"quantity == 2 AND department == "Fruit""#)
        #expect(try query.all().ids == ["b2"])
        let mixed = try Item.query(in: context).where([.quantity: gte(2)]).where("name BEGINSWITH[c] %@", "i").where(\.department == nil)
        #expect(mixed.predicate.predicateFormat == #"quantity >= 2 AND name BEGINSWITH[c] "i" AND department == nil"#)
        #expect(try mixed.all().ids == ["d4"])
    }

    @Test(arguments: TestEngine.allCases)
    func orWithMoreThanTwoClauses(engine: TestEngine) throws {
        let context = try engine.seededContext()
        let query = try Item.query(in: context).where([.quantity: 1]).or([.quantity: 3]).or("name == %@", "item 10")
        #expect(query.predicate.predicateFormat == #"quantity == 1 OR quantity == 3 OR name == "item 10""#)
        #expect(try query.all().ids == ["a1", "c3", "d4"])
    }

    @Test(arguments: TestEngine.allCases)
    func complexChainOfWhereAndOr(engine: TestEngine) throws {
        let context = try engine.seededContext()
        let query = try Item.query(in: context)
            .where([.department: "Fruit"])
            .where([.quantity: gt(1)])
            .or([.name: "Carrot"])
            .where(\.date < day(4))
            .or("quantity == %d", 4)
        let dateCondition = try FormatPredicate(format: "date < %@", day(4)).predicateFormat
        #expect(query.predicate.predicateFormat
            == #"(((department == "Fruit" AND quantity > 1) OR name == "Carrot") AND "# + dateCondition + ") OR quantity == 4")
        #expect(try query.all().ids == ["b2", "c3", "d4"])
    }
}
