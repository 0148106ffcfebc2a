import EngineTestSupport
import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// Paging a query sorted through a to-one (`department.name`): every page after the first
/// continues where the last one ended, on every engine, by cursor, by fetch request and by
/// `fetchBatches`. The value such a sort orders by lives on the related record, not on the
/// record a page ends with, so these queries page by offset (a keyset position read the walked
/// value as nil: `[e1]` came back on every page, forever).
@Suite("Paging a query sorted through a to-one")
struct WalkedSortPagingTests {
    static let sortings: [[Sort]] = [
        [Sort("department.name")],
        [Sort("department.name", ascending: false)],
        [Sort("department.name"), Sort("name", ascending: false)],
        [Sort("salary", ascending: false), Sort("department.budget")],
        [Sort("manager.department.name"), Sort("manager.salary", ascending: false)],
    ]

    /// The record names of a query's pages of `size`, read by cursor until none is left.
    static func pagedByCursor(_ store: Store, _ sorts: [Sort], size: Int) throws -> [String] {
        let query = try RecordQuery(recordType: "Employee", predicate: .truePredicate, sorts: sorts)
        var batch = try store.firstBatch(matching: query, resultsLimit: size)
        var names = batch.records.map(\.recordID.recordName)
        var pages = 1
        while let cursor = batch.cursor, pages < 20 {
            batch = try store.nextBatch(continuingMatchFrom: cursor, resultsLimit: size)
            names += batch.records.map(\.recordID.recordName)
            pages += 1
        }
        return names
    }

    @Test("Cursor pages of one and two records make the unpaged order", arguments: TestEngine.allCases)
    func cursorPages(engine: TestEngine) throws {
        let store = try RelationshipWalkTests.company(engine)
        for sorts in Self.sortings {
            let unpaged = try store.records(ofType: "Employee", matching: .truePredicate, sorts: sorts).map(\.recordID.recordName)
            #expect(unpaged.count == 5)
            for size in [1, 2] {
                #expect(try Self.pagedByCursor(store, sorts, size: size) == unpaged, "\(engine) \(sorts.map(\.key)) size \(size)")
            }
        }
        #expect(try store.records(ofType: "Employee", matching: .truePredicate, sorts: [Sort("department.name"), Sort("name")])
            .map(\.recordID.recordName) == ["e4", "e5", "e3", "e1", "e2"])
    }

    @Test("Fetch requests read in batches make the unpaged order", arguments: TestEngine.allCases)
    func fetchRequestBatches(engine: TestEngine) async throws {
        let store = try RelationshipWalkTests.company(engine)
        for sorts in Self.sortings {
            let unpaged = try await store.records(ofType: "Employee", matching: .truePredicate, sorts: sorts).map(\.recordID.recordName)
            var request = FetchRequest(entityName: "Employee", sortDescriptors: sorts)
            request.fetchBatchSize = 2
            #expect(try await store.fetch(request).records.map(\.recordID.recordName) == unpaged, "\(engine) \(sorts.map(\.key))")
            var batched: [String] = []
            for try await batch in store.fetchBatches(request) { batched += batch.map(\.recordID.recordName) }
            #expect(batched == unpaged, "\(engine) \(sorts.map(\.key))")
            request.fetchOffset = 1
            request.fetchLimit = 3
            #expect(try await store.fetch(request).records.map(\.recordID.recordName) == Array(unpaged[1..<4]), "\(engine) \(sorts.map(\.key))")
        }
    }

    /// Managers "ada", "Bob" and "Åsa": a sort by `manager.name` compares as it asks on every
    /// engine (SQLite once ordered a walked string by code point whatever the comparison).
    @Test("A sort through a to-one compares as it asks", arguments: TestEngine.allCases)
    func walkedSortComparison(engine: TestEngine) throws {
        let store = try engine.makeStore()
        try store.define(RelationshipWalkTests.schema)
        try store.save([
            RelationshipWalkTests.record("Employee", "ada", ["name": "ada"]),
            RelationshipWalkTests.record("Employee", "bob", ["name": "Bob"]),
            RelationshipWalkTests.record("Employee", "asa", ["name": "Åsa"]),
            RelationshipWalkTests.record("Employee", "e1", ["name": "e1", "manager": RelationshipWalkTests.reference("ada")]),
            RelationshipWalkTests.record("Employee", "e2", ["name": "e2", "manager": RelationshipWalkTests.reference("bob")]),
            RelationshipWalkTests.record("Employee", "e3", ["name": "e3", "manager": RelationshipWalkTests.reference("asa")]),
        ])
        let expected: [(SortComparison, [String])] = [
            (.compare, ["e2", "e1", "e3"]),
            (.caseInsensitive, ["e1", "e2", "e3"]),
            (.localized, ["e1", "e3", "e2"]),
            (.localizedCaseInsensitive, ["e1", "e3", "e2"]),
            (.localizedStandard, ["e1", "e3", "e2"]),
        ]
        for (comparison, names) in expected {
            let sorted = try store.records(
                ofType: "Employee", matching: FormatPredicate(format: "manager != nil"), sorts: [Sort("manager.name", comparison: comparison)])
            #expect(sorted.map(\.recordID.recordName) == names, "\(engine) \(comparison)")
            let descending = try store.records(
                ofType: "Employee", matching: FormatPredicate(format: "manager != nil"), sorts: [Sort("manager.name", ascending: false, comparison: comparison)])
            #expect(descending.map(\.recordID.recordName) == names.reversed(), "\(engine) \(comparison) descending")
        }
    }
}
