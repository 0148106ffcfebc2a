/// The spread of repeated measurements: the smallest, the median and the largest.
struct Spread {
    let minimum: Double
    let median: Double
    let maximum: Double

    /// The spread of `samples`, which must not be empty.
    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        minimum = sorted.first ?? .nan
        maximum = sorted.last ?? .nan
        if sorted.isEmpty {
            median = .nan
        } else if sorted.count % 2 == 1 {
            median = sorted[sorted.count / 2]
        } else {
            median = (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
    }

    /// `min / median / max` with a unit, for a report note.
    func text(unit: String) -> String {
        "\(BenchmarkReport.format(minimum)) / \(BenchmarkReport.format(median)) / \(BenchmarkReport.format(maximum)) \(unit)"
    }
}
