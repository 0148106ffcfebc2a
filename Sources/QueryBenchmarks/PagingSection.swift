import Foundation
import PredicateLanguage
import RecordStore

/// Keyset paging on cities1000 sorted by population: batch 1,000 should cost no more than 2x batch 1.
struct PagingSection: BenchmarkSection {
    let name = "paging"
    let title = "Paging (cities1000, 170,391 records, batches of 100 by population: batch 1,000 <= 2x batch 1)"

    func run(report: BenchmarkReport) async throws {
        let store = try Store.open(path: try Cities1000Database.path())
        for ascending in [false, true] {
            let query = try RecordQuery(recordType: "City", predicate: .truePredicate, sorts: [Sort("population", ascending: ascending)])
            let direction = ascending ? "ascending" : "descending"
            var batch = try store.firstBatch(matching: query, resultsLimit: 100)
            var offsetBatch = try store.firstBatch(matching: query, resultsLimit: 100, cursorMode: .offset)
            for _ in 2..<1_000 {
                guard let cursor = batch.cursor, let offsetCursor = offsetBatch.cursor else { break }
                batch = try store.nextBatch(continuingMatchFrom: cursor, resultsLimit: 100)
                offsetBatch = try store.nextBatch(continuingMatchFrom: offsetCursor, resultsLimit: 100)
            }
            // The cursors after batch 999 fetch batch 1,000.
            guard let cursor = batch.cursor, let offsetCursor = offsetBatch.cursor else {
                report.note("fewer than 1,000 batches")
                return
            }
            let first = try Stopwatch.nanosecondsPerIteration(runs: 5, iterations: 50) {
                blackHole(try store.firstBatch(matching: query, resultsLimit: 100))
            }
            let thousandth = try Stopwatch.nanosecondsPerIteration(runs: 5, iterations: 50) {
                blackHole(try store.nextBatch(continuingMatchFrom: cursor, resultsLimit: 100))
            }
            let offsetThousandth = try Stopwatch.nanosecondsPerIteration(runs: 3, iterations: 5) {
                blackHole(try store.nextBatch(continuingMatchFrom: offsetCursor, resultsLimit: 100))
            }
            report.figure("keyset batch 1,000 vs batch 1 (\(direction))", measured: thousandth / 1000, baseline: first / 1000, unit: "µs",
                          target: .ratioAtMost(2), baselineName: "batch 1 of the same query")
            report.figure("offset batch 1,000 vs batch 1 (\(direction))", measured: offsetThousandth / 1000, baseline: first / 1000, unit: "µs",
                          target: .none, baselineName: "batch 1; CloudKit-style offset cursors, for comparison")
        }
    }
}
