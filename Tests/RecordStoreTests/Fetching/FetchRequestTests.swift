import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

@Suite("FetchRequest on both engines")
struct FetchRequestTests {
    /// Twelve items (see `SmallStores.items`) in a memory and a SQLite store.
    func stores() throws -> [Store] {
        let stores = try SmallStores.all()
        for store in stores { try store.save(SmallStores.items(12)) }
        return stores
    }

    func names(_ result: FetchResult) -> [String] { result.recordIDs.map(\.recordName) }

    @Test("Predicate, sorts, limit, offset and result types")
    func basics() throws {
        for store in try stores() {
            var request = FetchRequest(entityName: "Item", predicate: try FormatPredicate(format: "rank > 20"))
            request.sortDescriptors = [Sort("rank", ascending: false)]
            #expect(names(try store.fetch(request)) == ["item004", "item008", "item001", "item005", "item002"])
            request.fetchOffset = 1
            request.fetchLimit = 3
            #expect(names(try store.fetch(request)) == ["item008", "item001", "item005"])
            request.resultType = .recordIDs
            #expect(try store.fetch(request) == .recordIDs(["item008", "item001", "item005"].map { RecordID(recordName: $0) }))
            request.resultType = .count
            #expect(try store.fetch(request) == .count(3))
            #expect(try store.count(for: request) == 3)
            request.fetchOffset = 4
            #expect(try store.count(for: request) == 1)
            #expect(try store.count(for: FetchRequest(entityName: "Item")) == 12)
            #expect(throws: RecordStoreError.unknownRecordType("Nothing", suggestions: [])) {
                try store.count(for: FetchRequest(entityName: "Nothing"))
            }
        }
    }

    @Test("propertiesToFetch limits record fields; dictionaries leave nil out; distinct drops repeats")
    func dictionaries() throws {
        for store in try stores() {
            var request = FetchRequest(entityName: "Item", predicate: try FormatPredicate(format: "rank == nil"), sortDescriptors: [Sort("recordName")])
            request.propertiesToFetch = ["group", "rank"]
            #expect(try store.fetch(request).records.map(\.fields) == [["group": "a"], ["group": "d"], ["group": "c"], ["group": "b"]])
            request.resultType = .dictionaries
            #expect(try store.fetch(request) == .dictionaries([["group": "a"], ["group": "d"], ["group": "c"], ["group": "b"]]))

            var distinct = FetchRequest(entityName: "Item", sortDescriptors: [Sort("group")], resultType: .dictionaries)
            distinct.propertiesToFetch = ["group"]
            #expect(try store.fetch(distinct).count == 12)
            distinct.returnsDistinctResults = true
            #expect(try store.fetch(distinct).dictionaries == [["group": "a"], ["group": "b"], ["group": "c"], ["group": "d"]])
            distinct.fetchOffset = 1
            distinct.fetchLimit = 2
            #expect(try store.fetch(distinct).dictionaries == [["group": "b"], ["group": "c"]])
            #expect(try store.count(for: distinct) == 2)
        }
    }

    @Test("Aggregates grouped by a field, identical on both engines")
    func aggregates() throws {
        var request = FetchRequest(entityName: "Item", sortDescriptors: [Sort("total", ascending: false)], resultType: .dictionaries)
        request.propertiesToFetch = [
            "group",
            .aggregate(AggregateProperty(name: "total", function: .sum, key: "rank")),
            .aggregate(AggregateProperty(name: "meanWeight", function: .average, key: "weight")),
            .aggregate(AggregateProperty(name: "firstTitle", function: .min, key: "title")),
            .aggregate(AggregateProperty(name: "best", function: .max, key: "rank")),
            .aggregate(AggregateProperty(name: "ranked", function: .count, key: "rank")),
        ]
        request.propertiesToGroupBy = ["group"]
        let expected: [[String: Value]] = [
            ["group": "a", "total": 94, "meanWeight": .double(1.0), "firstTitle": "Alpha 0", "best": 48, "ranked": 2],
            ["group": "b", "total": 72, "meanWeight": .double(1.25), "firstTitle": "Alpha 5", "best": 37, "ranked": 2],
            ["group": "c", "total": 44, "meanWeight": .double(2.0 / 3), "firstTitle": "Alpha 3", "best": 24, "ranked": 2],
            ["group": "d", "total": 16, "meanWeight": .double(2.75 / 3), "firstTitle": "Gamma 0", "best": 9, "ranked": 2],
        ]
        for store in try stores() {
            #expect(try store.fetch(request).dictionaries == expected)
            var limited = request
            limited.fetchLimit = 2
            limited.fetchOffset = 1
            #expect(try store.fetch(limited).dictionaries == Array(expected[1...2]))

            var overall = FetchRequest(entityName: "Item", resultType: .dictionaries)
            overall.propertiesToFetch = [
                .aggregate(AggregateProperty(name: "total", function: .sum, key: "rank")),
                .aggregate(AggregateProperty(name: "n", function: .count, key: "rank")),
            ]
            #expect(try store.fetch(overall).dictionaries == [["total": 226, "n": 8]])
            overall.predicate = .falsePredicate
            #expect(try store.fetch(overall).dictionaries == [["n": 0]])

            var wrong = overall
            wrong.resultType = .records
            #expect(throws: RecordStoreError.invalidQuery("aggregates and propertiesToGroupBy need the .dictionaries result type")) {
                try store.fetch(wrong)
            }
            var textSum = overall
            textSum.propertiesToFetch = [.aggregate(AggregateProperty(name: "x", function: .sum, key: "title"))]
            #expect(throws: RecordStoreError.invalidQuery("sum of 'title' needs a numeric field, and it has type string")) {
                try store.fetch(textSum)
            }
        }
    }

    @Test("Aggregates per country on all cities: SQL GROUP BY equals the memory engine")
    func cityAggregates() throws {
        let stores = try CitiesFixture.stores.get()
        var request = FetchRequest(entityName: "City", predicate: try FormatPredicate(format: "population > 100000"), resultType: .dictionaries)
        request.propertiesToFetch = [
            "countrycode",
            .aggregate(AggregateProperty(name: "people", function: .sum, key: "population")),
            .aggregate(AggregateProperty(name: "mean", function: .average, key: "population")),
            .aggregate(AggregateProperty(name: "largest", function: .max, key: "population")),
            .aggregate(AggregateProperty(name: "first", function: .min, key: "name")),
            .aggregate(AggregateProperty(name: "cities", function: .count, key: "name")),
            .aggregate(AggregateProperty(name: "north", function: .max, key: "latitude")),
        ]
        request.propertiesToGroupBy = ["countrycode"]
        request.sortDescriptors = [Sort("people", ascending: false)]
        let fromMemory = try stores.reference.fetch(request).dictionaries
        for (engine, store) in stores.others {
            #expect(try store.fetch(request).dictionaries == fromMemory, "\(engine)")
        }
        #expect(fromMemory.count == 171)
        #expect(fromMemory.first?["countrycode"] == "CN")
        #expect(fromMemory.map { $0["cities"]?.numericValue ?? 0 }.reduce(0, +) == 6_183)
        #expect(stores[.sqlite].engineName == "sqlite")
    }

    @Test("Templates: $VARIABLEs bound per call with substituting(_:)")
    func templates() throws {
        for store in try stores() {
            var template = FetchRequest(entityName: "Item", predicate: try FormatPredicate(format: "group == $GROUP AND rank >= $MINIMUM"))
            template.sortDescriptors = [Sort("rank")]
            #expect(names(try store.fetch(template.substituting(["GROUP": "a", "MINIMUM": 40]))) == ["item008", "item004"])
            #expect(names(try store.fetch(template.substituting(["GROUP": "d", "MINIMUM": 0]))) == ["item011", "item007"])
            #expect(throws: RecordStoreError.invalidQuery("the predicate is a template with unbound variables $GROUP, $MINIMUM: bind them with substituting(_:)")) {
                try store.fetch(template)
            }
        }
    }

    @Test("fetchBatchSize: batches of that size, limit and offset respected")
    func batches() async throws {
        for store in try stores() {
            var request = FetchRequest(entityName: "Item", sortDescriptors: [Sort("weight", ascending: false)])
            request.fetchBatchSize = 5
            var sizes: [Int] = []
            var all: [String] = []
            for try await batch in store.fetchBatches(request) {
                sizes.append(batch.count)
                all += batch.map(\.recordID.recordName)
            }
            #expect(sizes == [5, 5, 2])
            // weight = (index % 10) / 4, descending; equal weights in record name order
            #expect(all == [9, 8, 7, 6, 5, 4, 3, 2, 1, 11, 0, 10].map { String(format: "item%03d", $0) })
            await #expect(names(try store.fetch(request)) == all)
            request.fetchLimit = 11
            request.fetchOffset = 0
            sizes = []
            for try await batch in store.fetchBatches(request) { sizes.append(batch.count) }
            #expect(sizes == [5, 5, 1])
            request.fetchLimit = 0
            request.fetchOffset = 2
            request.propertiesToFetch = ["weight"]
            var first: [Record] = []
            sizes = []
            for try await batch in store.fetchBatches(request) {
                if first.isEmpty { first = batch }
                sizes.append(batch.count)
            }
            #expect(sizes == [5, 5])
            #expect(first.first?.fields == ["weight": .double(1.75)])
            await #expect(names(try store.fetch(request)).count == 10)
        }
    }
}
