import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryBuilder
import RecordStore
import Testing

/// `sum`, `average`, `min`, `max` and `group(by:)`, run by the store, on both engines.
@Suite("Query aggregates")
struct AggregateTests {
    @Test(arguments: TestEngine.allCases)
    func sumsAndAverages(engine: TestEngine) throws {
        let context = try engine.seededContext()
        let all = Item.query(in: context)
        #expect(try all.sum("quantity") == .int(12))
        #expect(try all.sum(.quantity) == .int(12))
        let total: Int = try all.sum(\.quantity)
        #expect(total == 12)
        let fruit = all.where([.department: "Fruit"])
        #expect(try fruit.sum(.quantity) == .int(3))
        #expect(try all.average("quantity") == 2.4)
        #expect(try all.average(.quantity) == 2.4)
        #expect(try fruit.average(\.quantity) == 1.5)
    }

    @Test(arguments: TestEngine.allCases)
    func minimumsAndMaximums(engine: TestEngine) throws {
        let all = Item.query(in: try engine.seededContext())
        #expect(try [all.min("quantity"), all.max(.quantity), all.min(.name), all.max("name")] == [1, 4, "Apple", "item 10"])
        #expect(try [all.min(\.date), all.max(\.date)] == [day(1), day(5)])
        let departments: [String?] = try [all.min(\.department), all.max(\.department)]
        #expect(departments == ["Fruit", "Vegetable"])
        let smallest: Int? = try all.where([.quantity: gt(1)]).min(\.quantity)
        #expect(smallest == 2)
    }

    @Test(arguments: TestEngine.allCases)
    func aggregatesOfNothing(engine: TestEngine) throws {
        let context = try engine.seededContext()
        let none = Item.query(in: context).where([.quantity: gt(100)])
        #expect(try none.sum("quantity") == .int(0))
        let total: Int = try none.sum(\.quantity)
        #expect(total == 0)
        #expect(try none.average(.quantity) == nil)
        #expect(try none.min("quantity") == .null)
        #expect(try none.max(\.date) == nil)
        #expect(try none.group(by: .department) == [])
        let emptyStore = ModelContext(store: try engine.makeStore())
        #expect(try Item.query(in: emptyStore).sum(.quantity) == .int(0))
        #expect(try Item.query(in: emptyStore).max(.quantity) == .null)
        #expect(try Item.query(in: emptyStore).group(by: .department) == [])
        let onlyNil = try Item.query(in: context).where("department == nil")
        #expect(try onlyNil.min(\.department) == nil)
        #expect(try onlyNil.count() == 1)
    }

    @Test(arguments: TestEngine.allCases)
    func groupsWithCounts(engine: TestEngine) throws {
        let context = try engine.seededContext()
        let all = Item.query(in: context)
        #expect(try all.group(by: .department) == [
            GroupCount(values: [.null], count: 1),
            GroupCount(values: ["Fruit"], count: 2),
            GroupCount(values: ["Misc"], count: 1),
            GroupCount(values: ["Vegetable"], count: 1),
        ])
        // Issue #28: groups print as their values and counts, not as enum cases.
        #expect("\(try all.group(by: .department))" == #"[[nil]: 1, ["Fruit"]: 2, ["Misc"]: 1, ["Vegetable"]: 1]"#)
        #expect(try all.order(by: .department, .descending).group(by: \.department).map(\.values)
            == [["Vegetable"], ["Misc"], ["Fruit"], [.null]])
        #expect(try all.group(by: "department", "quantity") == [
            GroupCount(values: [.null, 4], count: 1),
            GroupCount(values: ["Fruit", 1], count: 1),
            GroupCount(values: ["Fruit", 2], count: 1),
            GroupCount(values: ["Misc", 2], count: 1),
            GroupCount(values: ["Vegetable", 3], count: 1),
        ])
        #expect(try all.group(by: .quantity) == [
            GroupCount(values: [1], count: 1), GroupCount(values: [2], count: 2),
            GroupCount(values: [3], count: 1), GroupCount(values: [4], count: 1),
        ])
        #expect(try all.offset(1).limit(2).group(by: .department) == [
            GroupCount(values: ["Fruit"], count: 2), GroupCount(values: ["Misc"], count: 1),
        ])
        #expect(try all.where([.quantity: 2]).group(by: ["department"]) == [
            GroupCount(values: ["Fruit"], count: 1), GroupCount(values: ["Misc"], count: 1),
        ])
    }

    @Test(arguments: TestEngine.allCases)
    func aggregatesCoverSavedRecords(engine: TestEngine) throws {
        let context = try engine.seededContext()
        try context.insert(Item(id: "f6", name: "Fig", quantity: 2, date: day(0), department: "Fruit"))
        let all = Item.query(in: context)
        #expect(throws: QueryError.pendingChangesNotAggregated(recordType: "Item", pendingChangeCount: 1)) {
            try all.sum(.quantity)
        }
        #expect(throws: QueryError.pendingChangesNotAggregated(recordType: "Item", pendingChangeCount: 1)) {
            try all.group(by: .department)
        }
        #expect(try all.includesPendingChanges(false).sum(.quantity) == .int(12))
        #expect(try all.includesPendingChanges(false).max(.date) == .date(day(5)))
        #expect(try Note.query(in: context).count() == 0)
        try context.save()
        #expect(try all.sum(.quantity) == .int(14))
        #expect(try all.min(\.date) == day(0))
        #expect(try all.group(by: .department).first { $0.values == ["Fruit"] }?.count == 3)
    }

    @Test(arguments: TestEngine.allCases)
    func aggregatesRefusePagesAndNonNumbers(engine: TestEngine) throws {
        let context = try engine.seededContext()
        #expect(throws: QueryError.aggregateOfPagedQuery(function: "sum")) {
            try Item.query(in: context).limit(2).sum(.quantity)
        }
        #expect(throws: QueryError.aggregateOfPagedQuery(function: "max")) {
            try Item.query(in: context).offset(1).max(.quantity)
        }
        #expect(throws: RecordStoreError.invalidQuery("sum of 'name' needs a numeric field, and it has type string")) {
            try Item.query(in: context).sum(.name)
        }
        #expect(throws: RecordStoreError.invalidQuery("average of 'date' needs a numeric field, and it has type date")) {
            try Item.query(in: context).average(\.date)
        }
    }
}
