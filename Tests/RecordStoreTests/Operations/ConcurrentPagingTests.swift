import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

@Suite("Paging while records are inserted and deleted")
struct ConcurrentPagingTests {
    static let sorts: [[Sort]] = [
        [Sort("rank")],
        [Sort("rank", ascending: false), Sort("title", comparison: .localizedCaseInsensitive)],
        [Sort("title", comparison: .caseInsensitive)],
        [Sort("weight", ascending: false), Sort("group")],
    ]

    @Test("Records present throughout appear exactly once; inserted ones at most once", arguments: sorts.indices)
    func stableUnderWrites(_ sortIndex: Int) async throws {
        for store in try SmallStores.all() {
            let initial = SmallStores.items(600)
            try await store.save(initial)
            let deletable = Set(initial.map(\.recordID).filter { (Int($0.recordName.dropFirst(4)) ?? 0) % 5 == 1 })
            let survivors = Set(initial.map(\.recordID)).subtracting(deletable)
            let query = try RecordQuery(recordType: "Item", predicate: .truePredicate, sorts: Self.sorts[sortIndex])
            var seen: [RecordID] = []
            var batch = try await store.records(matching: query, resultsLimit: 50)
            seen += batch.records.map(\.recordID)
            var round = 0
            var pendingDeletes = Array(deletable).sorted { $0.recordName < $1.recordName }
            while let cursor = batch.cursor {
                round += 1
                // Another task writes between batches: new records everywhere in the order, and deletions.
                let doomed = Array(pendingDeletes.prefix(10))
                let inserted = SmallStores.items(12, prefix: "new\(round)-")
                let writer = Task {
                    try store.save(inserted)
                    try store.delete(doomed)
                    return doomed.count
                }
                let deleted = try await writer.value
                pendingDeletes.removeFirst(deleted)
                batch = try await store.records(continuingMatchFrom: cursor, resultsLimit: 50)
                seen += batch.records.map(\.recordID)
            }
            let counts = Dictionary(seen.map { ($0, 1) }, uniquingKeysWith: +)
            #expect(survivors.allSatisfy { counts[$0] == 1 })
            #expect(counts.values.allSatisfy { $0 == 1 })
            #expect(round >= 12)
        }
    }
}
