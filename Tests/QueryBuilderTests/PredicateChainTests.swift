import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryBuilder
import RecordStore
import Testing

/// The printed predicate of each chain form, the grouping of `.or`, key paths and attributes.
@Suite("Predicate chains")
struct PredicateChainTests {
    let context = ModelContext(store: Store.inMemory())

    @Test func printedPredicates() throws {
        let query = Item.query(in: context)
        #expect(query.predicate.predicateFormat == "TRUEPREDICATE")
        #expect(try query.where("quantity == 1").predicate.predicateFormat == "quantity == 1")
        #expect(try query.where("quantity == %d", 1).predicate.predicateFormat == "quantity == 1")
        #expect(try query.where("name == %@", "Alice").predicate.predicateFormat == #"name == "Alice""#)
        #expect(try query.where("%K == %@", "name", "Alice").predicate.predicateFormat == #"name == "Alice""#)
        #expect(query.where([.quantity: 1]).predicate.predicateFormat == "quantity == 1")
        #expect(query.where([.name: "Alice"]).predicate.predicateFormat == #"name == "Alice""#)
        #expect(try query.where("quantity == 1").where("name == %@", "Alice").predicate.predicateFormat
            == #"quantity == 1 AND name == "Alice""#)
        #expect(try query.where("quantity == 1").or("name == %@", "Alice").predicate.predicateFormat
            == #"quantity == 1 OR name == "Alice""#)
        #expect(try query.where("quantity == 1").where("name == %@", "Alice").or("name == %@", "Bob").predicate.predicateFormat
            == #"(quantity == 1 AND name == "Alice") OR name == "Bob""#)
        #expect(query.where([.quantity: lt(1)]).predicate.predicateFormat == "quantity < 1")
        #expect(query.where([.quantity: lte(1)]).predicate.predicateFormat == "quantity <= 1")
        #expect(query.where([.quantity: gt(1)]).predicate.predicateFormat == "quantity > 1")
        #expect(query.where([.quantity: gte(1)]).predicate.predicateFormat == "quantity >= 1")
        #expect(query.where([.quantity: ne(1)]).predicate.predicateFormat == "quantity != 1")
        #expect(query.where([.quantity: 1...3]).predicate.predicateFormat == "quantity BETWEEN {1, 3}")
        #expect(query.where([.quantity: 1..<3]).predicate.predicateFormat == "quantity >= 1 AND quantity < 3")
        #expect(query.where([.name: ["a", "b"]]).predicate.predicateFormat == #"name IN {"a", "b"}"#)
        #expect(try query.where("a == 1 OR b == 2").where("c == 3").predicate.predicateFormat == "(a == 1 OR b == 2) AND c == 3")
        #expect(try query.where([.quantity: 1]).or([.quantity: 1..<3]).predicate.predicateFormat
            == "quantity == 1 OR (quantity >= 1 AND quantity < 3)")
    }

    @Test func dictionaryConditionsFollowAttributeOrder() {
        let query = Item.query(in: context)
        let expected = #"name == "A" AND quantity == 2 AND department == "D""#
        #expect(query.where([.department: "D", .quantity: 2, .name: "A"]).predicate.predicateFormat == expected)
        #expect(query.where([.quantity: 2, .name: "A", .department: "D"]).predicate.predicateFormat == expected)
        #expect(Gadget.query(in: context).where([.stock: 1, .label: "x"]).predicate.predicateFormat == #"label == "x" AND stock == 1"#)
    }

    @Test func keyPathConditions() throws {
        let query = Item.query(in: context)
        #expect(try query.where(\.quantity == 1).predicate.predicateFormat == "quantity == 1")
        #expect(try query.where(\.quantity != 1).predicate.predicateFormat == "quantity != 1")
        #expect(try query.where(\.quantity < 1).predicate.predicateFormat == "quantity < 1")
        #expect(try query.where(\.quantity <= 1).predicate.predicateFormat == "quantity <= 1")
        #expect(try query.where(\.quantity > 1).predicate.predicateFormat == "quantity > 1")
        #expect(try query.where(\.quantity >= 1).predicate.predicateFormat == "quantity >= 1")
        #expect(try query.where(\.department == nil).predicate.predicateFormat == "department == nil")
        #expect(try query.where(\.name, .beginsWith("A")).predicate.predicateFormat == #"name BEGINSWITH "A""#)
        #expect(try query.where(\.name, .contains("pp", .caseInsensitive)).predicate.predicateFormat == #"name CONTAINS[c] "pp""#)
        #expect(try query.where(\.name, .like("A*e")).predicate.predicateFormat == #"name LIKE "A*e""#)
        #expect(try query.where(\.quantity, 1...3).predicate.predicateFormat == "quantity BETWEEN {1, 3}")
        #expect(try query.where(\.quantity, .in([1, 2])).predicate.predicateFormat == "quantity IN {1, 2}")
        #expect(try query.where(\.quantity == 1).or(\.quantity == 3).predicate.predicateFormat == "quantity == 1 OR quantity == 3")
        #expect(query.where(.name, .endsWith("le")).predicate.predicateFormat == #"name ENDSWITH "le""#)
        #expect(query.where(.quantity, 2..<4).predicate.predicateFormat == "quantity >= 2 AND quantity < 4")
        #expect(Gadget.query(in: context).where(.stock, gt(3)).predicate.predicateFormat == "stock > 3")
    }

    @Test func unknownKeyPathIsAnError() {
        struct Untabled: Queryable {
            var size: Int
            enum Attribute: CaseIterable { case size }
        }
        #expect(throws: QueryError.unknownKeyPath(recordType: "Untabled", keyPath: "\\Untabled.size")) {
            try Untabled.query(in: context).where(\.size == 1)
        }
    }

    @Test func orOnAnEmptyQueryIsAnError() {
        #expect(throws: QueryError.orWithoutPrecedingCondition(recordType: "Item")) {
            try Item.query(in: context).or("quantity == 1")
        }
        #expect(throws: QueryError.orWithoutPrecedingCondition(recordType: "Item")) {
            try Item.query(in: context).or([.quantity: 1])
        }
        #expect(throws: QueryError.orWithoutPrecedingCondition(recordType: "Item")) {
            try Item.query(in: context).or(\.quantity == 1)
        }
    }

    @Test func queriesAreValues() throws {
        let base = Item.query(in: context).where([.quantity: 1])
        let narrowed = try base.where("name == 'Apple'").order(by: "date").limit(2)
        #expect(base.predicate.predicateFormat == "quantity == 1")
        #expect(base.sorts == [])
        #expect(base.fetchLimit == nil)
        #expect(narrowed.predicate.predicateFormat == #"quantity == 1 AND name == "Apple""#)
        #expect(narrowed.sorts == [Sort("date")])
        #expect(narrowed.fetchLimit == 2)
    }

    @Test func sortLevels() throws {
        let query = try Item.query(in: context)
            .order(by: "department")
            .order(by: .quantity, .descending)
            .order(by: \.name, .ascending, .localizedStandard)
        #expect(query.sorts == [
            Sort("department"),
            Sort("quantity", ascending: false),
            Sort("name", comparison: .localizedStandard),
        ])
    }

    @Test func badPagingIsAnError() {
        #expect(throws: QueryError.invalidPaging("A limit must not be negative, but it is -1")) {
            try Item.query(in: context).limit(-1)
        }
        #expect(throws: QueryError.invalidPaging("An offset must not be negative, but it is -2")) {
            try Item.query(in: context).offset(-2)
        }
    }

    @Test func rawValueAttributesNameFields() {
        #expect(Gadget.fieldName(for: .stock) == "stock")
        #expect(Item.fieldName(for: .quantity) == "quantity")
    }
}

/// Behaviours beyond the Query package's suite, on both engines.
@Suite("Query results")
struct QueryResultTests {
    @Test(arguments: TestEngine.allCases)
    func groupingIsTellableByResults(engine: TestEngine) throws {
        let context = try engine.seededContext()
        let grouped = try Item.query(in: context).where("quantity == 2").where("department == 'Fruit'").or("name == 'Carrot'")
        #expect(grouped.predicate.predicateFormat == #"(quantity == 2 AND department == "Fruit") OR name == "Carrot""#)
        #expect(try grouped.all().ids == ["b2", "c3"])
        let nested = try Item.query(in: context).where("quantity == 2 AND (department == 'Fruit' OR name == 'Carrot')")
        #expect(try nested.all().ids == ["b2"])
    }

    @Test(arguments: TestEngine.allCases)
    func keyPathConditionsRun(engine: TestEngine) throws {
        let context = try engine.seededContext()
        #expect(try Item.query(in: context).where(\.quantity == 2).all().ids == ["b2", "e5"])
        #expect(try Item.query(in: context).where(\.name, .beginsWith("i", .caseInsensitive)).all().ids == ["d4", "e5"])
        #expect(try Item.query(in: context).where(\.date >= day(4)).all().ids == ["d4", "e5"])
        #expect(try Item.query(in: context).where(\.department == nil).all().ids == ["d4"])
        #expect(try Item.query(in: context).where(.name, .endsWith("ot")).all().ids == ["c3"])
    }

    @Test(arguments: TestEngine.allCases)
    func limitAndOffset(engine: TestEngine) throws {
        let context = try engine.seededContext()
        let byDate = Item.query(in: context).order(by: .date)
        #expect(try byDate.limit(2).all().ids == ["a1", "b2"])
        #expect(try byDate.offset(1).limit(2).all().ids == ["b2", "c3"])
        #expect(try byDate.offset(4).all().ids == ["e5"])
        #expect(try byDate.offset(1).limit(2).count() == 2)
        #expect(try byDate.offset(4).limit(2).count() == 1)
        #expect(try byDate.offset(9).count() == 0)
    }

    @Test(arguments: TestEngine.allCases)
    func selectFetchesOnlySomeFields(engine: TestEngine) throws {
        let context = try engine.seededContext()
        let rows = try Item.query(in: context).where([.quantity: 1]).select(.name, .quantity).records()
        #expect(rows.map(\.fields) == [["name": "Apple", "quantity": 1]])
        #expect(try Item.query(in: context).where([.quantity: 1]).select("name").records().map(\.fields) == [["name": "Apple"]])
        #expect(try Item.query(in: context).where([.quantity: 1]).select(\.department).records().map(\.fields) == [["department": "Fruit"]])
        // The id reads the record name; the first required property not fetched is the error.
        #expect(throws: ModelCodingError.missingField(recordType: "Item", recordName: "a1", field: "quantity")) {
            try Item.query(in: context).where([.quantity: 1]).select("name").all()
        }
    }

    @Test("delete() is a batch delete: it deletes the stored matches now, bypassing the context's pending changes", arguments: TestEngine.allCases)
    func deleteIsABatchDelete(engine: TestEngine) throws {
        let context = try engine.seededContext()
        // Pending: an update of a1 (a match), a deletion of b2 (a match), an insert of a match.
        var apple = try #require(try Item.query(in: context).fetch("a1"))
        apple.quantity = 9
        try context.update(apple)
        try context.delete(try #require(try Item.query(in: context).fetch("b2")))
        try context.insert(Item(id: "f6", name: "Fig", quantity: 6, date: .now, department: "Fruit"))
        #expect(try Item.query(in: context).where([.department: "Fruit"]).delete() == 2)
        // The store lost a1 and b2 now; the pending insert of f6 and update of a1 stay, b2's deletion is done.
        #expect(try Item.query(in: context).includesPendingChanges(false).all().ids == ["c3", "d4", "e5"])
        #expect(context.pendingChangeCount == 2)
        // Saving the update of a record the batch deleted is a conflict; without it, the insert saves.
        #expect(throws: QueryError.modelChangedElsewhere(recordType: "Item", recordName: "a1")) { try context.save() }
        context.rollback()
        try context.insert(Item(id: "f6", name: "Fig", quantity: 6, date: .now, department: "Fruit"))
        try context.save()
        #expect(try Item.query(in: context).all().ids == ["c3", "d4", "e5", "f6"])
        #expect(try Item.query(in: context).where([.quantity: gt(100)]).delete() == 0)
    }

    @Test("update(_:) is a batch update: it sets fields on the stored matches now", arguments: TestEngine.allCases)
    func updateIsABatchUpdate(engine: TestEngine) throws {
        let context = try engine.seededContext()
        let stale = try #require(try Item.query(in: context).fetch("e5"))
        #expect(try Item.query(in: context).where([.quantity: 2]).update([.department: "Sold out"]) == 2)
        // A model read before the batch is an older version: saving a change of it is a conflict.
        var older = stale
        older.quantity = 7
        try context.update(older)
        #expect(throws: QueryError.modelChangedElsewhere(recordType: "Item", recordName: "e5")) { try context.save() }
        context.rollback()
        #expect(try Item.query(in: context).where([.department: "Sold out"]).all().ids == ["b2", "e5"])
        #expect(try Item.query(in: context).where("quantity >= 3").order(by: .quantity).update(["department": nil]) == 2)
        #expect(try Item.query(in: context).where("department == nil").all().ids == ["c3", "d4"])
    }

    @Test(arguments: TestEngine.allCases)
    func asyncResults(engine: TestEngine) async throws {
        let context = try engine.seededContext()
        let query = Item.query(in: context).where([.quantity: 2]).order(by: .date)
        let all: [Item] = try await query.all()
        #expect(all.ids == ["b2", "e5"])
        let first: Item? = try await query.first()
        #expect(first?.id == "b2")
        let count: Int = try await query.count()
        #expect(count == 2)
        let exists: Bool = try await query.exists()
        #expect(exists == true)
    }

    @Test(arguments: TestEngine.allCases)
    func explainShowsThePlan(engine: TestEngine) throws {
        let context = try engine.seededContext()
        let plan = try Item.query(in: context).where([.quantity: 1]).explain()
        #expect(plan.engine == engine.engineName)
        if engine != .memory {
            #expect(plan.sql.contains("\"quantity\""))
        } else {
            #expect(plan.sql == "")
        }
    }
}
