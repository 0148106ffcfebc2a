import EngineTestSupport
import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

/// The sorts paged through on all 34,006 cities.
let pagingSorts: [[Sort]] = [
    [Sort("population", ascending: false)],
    [Sort("missingField"), Sort("population")],
    [Sort("name", comparison: .caseInsensitive)],
    [Sort("name", comparison: .localized), Sort("countrycode", ascending: false)],
    [Sort.distance(from: Location(latitude: 48.8566, longitude: 2.3522), key: "location")],
    [Sort("timezone", ascending: false), Sort("name", comparison: .localizedCaseInsensitive)],
]

/// Pages of 100 (as the issue asks): every record of the two engines once, in the order of one unpaged query.
let pagingBatchSize = 100

@Suite("Keyset paging through all cities")
struct PagingTests {
    @Test("Every city exactly once and in order, on every engine", arguments: pagingSorts.indices)
    func pagesCoverEverything(_ sortIndex: Int) throws {
        let sorts = pagingSorts[sortIndex]
        // Without callbacks, a store sorts these orders in Swift, reading every match for each
        // page: 341 pages would take minutes in a debug build. Its Swift-sorted paging is checked
        // on fewer cities by `swiftSortedPages` below; here it runs the orders SQL sorts.
        // PostgreSQL sorts the localized orders by their stored sort keys, but distances in Swift.
        let sortsInSwift = sorts.contains { $0.comparison != .compare || $0.distanceOrigin != nil }
        let sortsByDistance = sorts.contains { $0.distanceOrigin != nil }
        let stores = try CitiesFixture.stores.get().all
            .filter { !(sortsInSwift && $0.engine == .portableSQLite) && !(sortsByDistance && $0.engine == .postgres) }.map(\.store)
        let query = try RecordQuery(recordType: "City", predicate: .truePredicate, sorts: sorts)
        var orders: [[String]] = []
        for store in stores {
            var records: [Record] = []
            var batch = try store.firstBatch(matching: query, resultsLimit: pagingBatchSize)
            var batches = 1
            records += batch.records
            while let cursor = batch.cursor {
                #expect(batch.records.count == pagingBatchSize)
                batch = try store.nextBatch(continuingMatchFrom: cursor, resultsLimit: pagingBatchSize)
                records += batch.records
                batches += 1
            }
            let names = records.map(\.recordID.recordName)
            // In order: no record precedes the one before it.
            let ordering = RecordOrdering(sorts: sorts)
            #expect(zip(records, records.dropFirst()).filter { ordering.precedes($1, $0) }.count == 0)
            #expect(batches == 341)   // 340 full batches of 100 and one of 6
            #expect(names.count == 34_006)
            #expect(Set(names).count == 34_006)
            let unpaged = try store.records(ofType: "City", matching: .truePredicate, sorts: sorts).map(\.recordID.recordName)
            #expect(names == unpaged)
            orders.append(names)
        }
        // Every order is a total order (the localized ones from ICU's collation): one sequence everywhere.
        #expect(orders.allSatisfy { $0 == orders[0] })
    }

    @Test("Orders sorted in Swift page exactly once on a store without callbacks", arguments: pagingSorts.indices)
    func swiftSortedPages(_ sortIndex: Int) throws {
        let stores = try CitiesFixture.stores.get()
        let sorts = pagingSorts[sortIndex]
        let predicate = try FormatPredicate(format: "countrycode IN {'FR', 'DE'}")
        let query = try RecordQuery(recordType: "City", predicate: predicate, sorts: sorts)
        // SQLite without callbacks sorts every order but code points in Swift; PostgreSQL, distances.
        for (engine, store) in stores.all where [TestEngine.portableSQLite, .postgres].contains(engine) {
            try swiftSortedPages(store, query: query, sorts: sorts, predicate: predicate, reference: stores.reference)
        }
    }

    private func swiftSortedPages(_ store: Store, query: RecordQuery, sorts: [Sort], predicate: FormatPredicate, reference: Store) throws {
        var records: [Record] = []
        var batch = try store.firstBatch(matching: query, resultsLimit: pagingBatchSize)
        records += batch.records
        while let cursor = batch.cursor {
            #expect(batch.records.count == pagingBatchSize)
            batch = try store.nextBatch(continuingMatchFrom: cursor, resultsLimit: pagingBatchSize)
            records += batch.records
        }
        let names = records.map(\.recordID.recordName)
        let ordering = RecordOrdering(sorts: sorts)
        #expect(zip(records, records.dropFirst()).filter { ordering.precedes($1, $0) }.count == 0)
        #expect(names.count == 1_831)
        #expect(Set(names).count == 1_831)
        #expect(names == (try reference.records(ofType: "City", matching: predicate, sorts: sorts).map(\.recordID.recordName)))
    }

    @Test("A residual predicate fills each batch")
    func residualBatches() throws {
        let stores = try CitiesFixture.stores.get().stores
        let predicate = try FormatPredicate(format: "name MATCHES '[A-Z][a-z]+ [A-Z][a-z]+' AND countrycode == 'US'")
        let query = try RecordQuery(recordType: "City", predicate: predicate, sorts: [Sort("population", ascending: false)])
        for store in stores {
            var sizes: [Int] = []
            var names: [String] = []
            var batch = try store.firstBatch(matching: query, resultsLimit: 40)
            sizes.append(batch.records.count)
            names += batch.records.map(\.recordID.recordName)
            while let cursor = batch.cursor {
                batch = try store.nextBatch(continuingMatchFrom: cursor, resultsLimit: 40)
                sizes.append(batch.records.count)
                names += batch.records.map(\.recordID.recordName)
            }
            let all = try store.records(ofType: "City", matching: predicate, sorts: query.sorts).map(\.recordID.recordName)
            #expect(names == all)
            #expect(sizes.dropLast().allSatisfy { $0 == 40 })
            #expect(sizes.reduce(0, +) == all.count)
        }
    }

    @Test("The stream walks every record once, in order")
    func stream() async throws {
        let stores = try CitiesFixture.stores.get().stores
        let query = try RecordQuery(
            recordType: "City", predicate: FormatPredicate(format: "countrycode IN {'FR', 'DE'}"), sorts: [Sort("population", ascending: false)])
        for store in stores {
            var names: [String] = []
            for try await record in store.stream(matching: query, desiredKeys: ["name"], batchSize: 64) {
                names.append(record.recordID.recordName)
                #expect(Set(record.fields.keys).isSubset(of: ["name"]))
            }
            let all = try await store.records(ofType: "City", matching: query.predicate, sorts: query.sorts).map(\.recordID.recordName)
            #expect(names.count == 1_831)
            #expect(names == all)
        }
    }
}
