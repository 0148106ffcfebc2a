import Foundation
import PredicateLanguage
import RecordStore

/// Keyset paging on cities1000, by population (both directions) and by name in the localized
/// order (its sort-key column): batch 1,000 should cost no more than 2x batch 1. CloudKit-style
/// offset cursors are timed beside the population sorts, for comparison.
struct PagingSection: BenchmarkSection {
    let name = "paging"
    let title = "Paging (cities1000, 170,391 records, batches of 100: batch 1,000 <= 2x batch 1)"

    /// One sort to page through; `withOffsets` also walks offset cursors (slow: each offset
    /// batch reads every row before it).
    private struct Case {
        let label: String
        let sort: Sort
        let withOffsets: Bool
    }

    private let cases = [
        Case(label: "descending", sort: Sort("population", ascending: false), withOffsets: true),
        Case(label: "ascending", sort: Sort("population", ascending: true), withOffsets: true),
        Case(label: "name, localized", sort: Sort("name", comparison: .localized), withOffsets: false),
    ]

    func run(report: BenchmarkReport) async throws {
        let store = try Store.open(path: try Cities1000Database.path())
        for pagingCase in cases {
            let query = try RecordQuery(recordType: "City", predicate: .truePredicate, sorts: [pagingCase.sort])
            var batch = try store.firstBatch(matching: query, resultsLimit: 100)
            var offsetBatch = pagingCase.withOffsets ? try store.firstBatch(matching: query, resultsLimit: 100, cursorMode: .offset) : nil
            for _ in 2..<1_000 {
                guard let cursor = batch.cursor else { break }
                batch = try store.nextBatch(continuingMatchFrom: cursor, resultsLimit: 100)
                if let offsetCursor = offsetBatch?.cursor {
                    offsetBatch = try store.nextBatch(continuingMatchFrom: offsetCursor, resultsLimit: 100)
                }
            }
            // The cursors after batch 999 fetch batch 1,000.
            guard let cursor = batch.cursor else {
                report.note("fewer than 1,000 batches")
                return
            }
            let first = try Stopwatch.nanosecondsPerIteration(runs: 5, iterations: 50) {
                blackHole(try store.firstBatch(matching: query, resultsLimit: 100))
            }
            let thousandth = try Stopwatch.nanosecondsPerIteration(runs: 5, iterations: 50) {
                blackHole(try store.nextBatch(continuingMatchFrom: cursor, resultsLimit: 100))
            }
            report.figure("keyset batch 1,000 vs batch 1 (\(pagingCase.label))", measured: thousandth / 1000, baseline: first / 1000, unit: "µs",
                          target: .ratioAtMost(2), baselineName: "batch 1 of the same query")
            if let offsetCursor = offsetBatch?.cursor {
                let offsetThousandth = try Stopwatch.nanosecondsPerIteration(runs: 3, iterations: 5) {
                    blackHole(try store.nextBatch(continuingMatchFrom: offsetCursor, resultsLimit: 100))
                }
                report.figure("offset batch 1,000 vs batch 1 (\(pagingCase.label))", measured: offsetThousandth / 1000, baseline: first / 1000, unit: "µs",
                              target: .none, baselineName: "batch 1; CloudKit-style offset cursors, for comparison")
            }
        }
    }
}
