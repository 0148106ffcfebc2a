import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

/// Collects an operation's callbacks in the order they arrive.
final class CallbackLog: Sendable {
    private let entries = LockedState<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

@Suite("QueryOperation")
struct QueryOperationTests {
    @Test("Records in order, then the cursor; the cursor operation finishes the query")
    func callbacksInOrder() async throws {
        for store in try SmallStores.all() {
            try await store.save(SmallStores.items(7))
            let query = try RecordQuery(recordType: "Item", predicate: FormatPredicate(format: "rank != nil"), sorts: [Sort("rank", ascending: false)])
            let log = CallbackLog()
            let cursorBox = LockedState<QueryCursor?>(nil)
            let operation = QueryOperation(query: query)
            operation.resultsLimit = 3
            operation.desiredKeys = ["rank"]
            operation.recordMatchedBlock = { id, result in
                if case .success(let record) = result { log.append("\(id.recordName)=\(record["rank"]?.jsonText() ?? "nil")") }
            }
            operation.queryResultBlock = { result in
                switch result {
                case .success(let cursor):
                    cursorBox.withLock { $0 = cursor }
                    log.append(cursor == nil ? "done" : "cursor")
                case .failure(let error):
                    log.append("error \(error)")
                }
            }
            store.add(operation)
            await operation.waitUntilFinished()
            // ranks: item001 37, item002 24, item004 48, item005 35
            #expect(log.all == ["item004=48", "item001=37", "item005=35", "cursor"])
            #expect(operation.isFinished)

            let next = QueryOperation(cursor: try #require(cursorBox.withLock { $0 }))
            next.recordMatchedBlock = { id, _ in log.append(id.recordName) }
            next.queryResultBlock = { result in log.append((try? result.get()) == nil ? "done" : "cursor") }
            await next.run(on: store)
            #expect(log.all.suffix(2) == ["item002", "done"])
        }
    }

    @Test("A cancelled operation reports no record and completes with the cancelled error")
    func cancellation() async throws {
        let store = Store.inMemory()
        try await store.save(SmallStores.items(5))
        let log = CallbackLog()
        let operation = QueryOperation(query: try RecordQuery(recordType: "Item", predicate: .truePredicate))
        operation.recordMatchedBlock = { id, _ in
            log.append(id.recordName)
            operation.cancel()
        }
        operation.queryResultBlock = { result in
            if case .failure(let error) = result { log.append(error.description) }
        }
        await operation.run(on: store)
        #expect(log.all == ["item000", "The operation was cancelled"])
        #expect(operation.isCancelled)

        let early = QueryOperation(query: try RecordQuery(recordType: "Item", predicate: .truePredicate))
        early.cancel()
        early.recordMatchedBlock = { id, _ in log.append(id.recordName) }
        early.queryResultBlock = { result in
            if case .failure(.cancelled) = result { log.append("cancelled early") }
        }
        store.add(early)
        await early.waitUntilFinished()
        #expect(log.all.last == "cancelled early")
        #expect(log.all.count == 3)
    }

    @Test("Errors reach the completion; the default batch is 100 records")
    func errorsAndDefaults() async throws {
        let store = Store.inMemory()
        try await store.save(SmallStores.items(150))
        let operation = QueryOperation(query: try RecordQuery(recordType: "Item", predicate: .truePredicate))
        #expect(operation.resultsLimit == QueryOperation.maximumResults)
        let count = LockedState(0)
        operation.recordMatchedBlock = { _, _ in count.withLock { $0 += 1 } }
        await operation.run(on: store)
        #expect(count.withLock { $0 } == 100)

        let failing = QueryOperation(query: try RecordQuery(recordType: "Item", predicate: .truePredicate))
        failing.zoneID = ZoneID(zoneName: "Missing")
        let log = CallbackLog()
        failing.queryResultBlock = { result in
            if case .failure(let error) = result { log.append(error.description) }
        }
        await failing.run(on: store)
        #expect(log.all == ["Zone 'Missing' does not exist"])
    }
}
