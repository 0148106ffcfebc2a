import Foundation

/// Prints figures next to their baselines, with the ratio and whether the target holds.
final class BenchmarkReport: @unchecked Sendable {
    /// How a figure is judged against its baseline.
    enum Target: CustomStringConvertible {
        /// figure / baseline must be at most this.
        case ratioAtMost(Double)
        /// figure / baseline must be at least this (rates, where higher is better).
        case ratioAtLeast(Double)
        /// Nothing to judge; printed for information.
        case none

        var description: String {
            switch self {
            case .ratioAtMost(let limit): "<= \(BenchmarkReport.format(limit))x"
            case .ratioAtLeast(let limit): ">= \(BenchmarkReport.format(limit))x"
            case .none: "-"
            }
        }

        func holds(_ ratio: Double) -> Bool? {
            switch self {
            case .ratioAtMost(let limit): ratio <= limit
            case .ratioAtLeast(let limit): ratio >= limit
            case .none: nil
            }
        }
    }

    private var misses: [String] = []
    private var figures = 0

    func beginSection(_ title: String) {
        print("\n== \(title)")
        print(pad("figure", 52) + pad("measured", 16) + pad("baseline", 16) + pad("ratio", 9) + pad("target", 10) + "ok")
    }

    /// Reports one figure and its baseline, both in the same unit.
    func figure(_ name: String, measured: Double, baseline: Double, unit: String, target: Target, baselineName: String? = nil) {
        figures += 1
        let ratio = baseline == 0 ? .infinity : measured / baseline
        let verdict = target.holds(ratio)
        let mark = verdict.map { $0 ? "yes" : "NO" } ?? ""
        if verdict == false { misses.append(name) }
        print(pad(name, 52) + pad("\(BenchmarkReport.format(measured)) \(unit)", 16)
              + pad("\(BenchmarkReport.format(baseline)) \(unit)", 16) + pad("\(BenchmarkReport.format(ratio))x", 9)
              + pad(target.description, 10) + mark)
        if let baselineName { print("    baseline: \(baselineName)") }
    }

    /// A line of explanation under the figures.
    func note(_ text: String) {
        print("    \(text)")
    }

    func printSummary() {
        print("\n\(figures) figures; " + (misses.isEmpty ? "every target met." : "targets missed: \(misses.joined(separator: "; "))"))
    }

    static func format(_ value: Double) -> String {
        if value.isInfinite { return "inf" }
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
