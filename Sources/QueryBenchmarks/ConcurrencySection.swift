import Foundation
import PredicateLanguage
import RecordStore

/// Indexed queries on SQLite from 16 concurrent tasks against the same queries from 1 task,
/// through the async API: the throughput ratio shows whether anything serializes the tasks on
/// one thread (the async engine runs each read on GRDB's reader pool, off the cooperative pool).
struct ConcurrencySection: BenchmarkSection {
    let name = "concurrency"
    let title = "Concurrent async queries (cities1000 on SQLite: 16 tasks vs 1 task, indexed population ranges)"

    /// Queries per measurement, split evenly over the tasks.
    static let queryCount = 3_200
    static let taskCount = 16

    func run(report: BenchmarkReport) async throws {
        let store = try Store.open(path: try Cities1000Database.path())
        let queries = try Self.queries()
        _ = try await Self.runQueries(queries, on: store, tasks: 1)   // warm the page cache
        var single: [Double] = []
        var concurrent: [Double] = []
        for _ in 0..<3 {
            single.append(try await Self.runQueries(queries, on: store, tasks: 1))
            concurrent.append(try await Self.runQueries(queries, on: store, tasks: Self.taskCount))
        }
        let singleRate = Double(Self.queryCount) / (single.min() ?? 1)
        let concurrentRate = Double(Self.queryCount) / (concurrent.min() ?? 1)
        report.figure("queries/s, \(Self.taskCount) concurrent tasks vs 1 task", measured: concurrentRate, baseline: singleRate,
                      unit: "q/s", target: .ratioAtLeast(1.5), baselineName: "the same queries from 1 task, one after the other")
        report.note("\(ProcessInfo.processInfo.activeProcessorCount) cores; each query: population BETWEEN a range, by population, limit 20")
    }

    /// `population BETWEEN {low, high}` for ranges spread over the data, sorted by population, 20 records each.
    static func queries() throws -> [RecordQuery] {
        try (0..<queryCount).map { index in
            let low = 1_000 + (index * 7_919) % 200_000
            let predicate = try FormatPredicate(format: "population BETWEEN %@", argumentArray: [.list([.int(Int64(low)), .int(Int64(low + 5_000))])])
            return try RecordQuery(recordType: "City", predicate: predicate, sorts: [Sort("population")])
        }
    }

    /// Seconds to run every query, split over `tasks` concurrent tasks.
    static func runQueries(_ queries: [RecordQuery], on store: Store, tasks: Int) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var found = 0
                    for index in stride(from: task, to: queries.count, by: tasks) {
                        let query = queries[index]
                        found += try await store.records(ofType: query.recordType, matching: query.predicate, sorts: query.sorts, limit: 20).count
                    }
                    return found
                }
            }
            var total = 0
            for try await found in group { total += found }
            blackHole(total)
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
