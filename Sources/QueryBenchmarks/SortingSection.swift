import Foundation
import PredicateLanguage
import RecordStore

/// Sorting the 34,006 city names of `cities15000` by the localized collation: the store's
/// `SortComparison.localized` (ICU's root collation, a strict total order) against Foundation's
/// `localizedCompare` for every pair. Both the memory engine and the SQLite collation sort with
/// `SortComparison`, so this is the cost behind every `.localized` sort.
struct SortingSection: BenchmarkSection {
    let name = "sorting"
    let title = "Localized sorting of cities15000 names (34,006 strings)"

    func run(report: BenchmarkReport) async throws {
        let names = try Datasets.jsonLines("cities15000.jsonl.gz").compactMap { $0["name"]?.stringValue }
        var ours: [String] = []
        let oursSeconds = Stopwatch.seconds(runs: 3) {
            ours = names.sorted { SortComparison.localized.compare($0, $1) == .orderedAscending }
        }
        var foundation: [String] = []
        let foundationSeconds = Stopwatch.seconds(runs: 3) {
            foundation = names.sorted { $0.localizedCompare($1) == .orderedAscending }
        }
        report.figure("sort by .localized vs Foundation localizedCompare", measured: oursSeconds * 1000, baseline: foundationSeconds * 1000,
                      unit: "ms", target: .ratioAtMost(0.5), baselineName: "the same sort calling localizedCompare for every pair")
        report.note("the two sorts agree on \(zip(ours, foundation).filter { $0 == $1 }.count) of \(names.count) positions"
            + " (Foundation's localized order on Linux is not transitive on some non-ASCII names; ICU's collation is a total order)")
    }
}
