import PredicateLanguage

/// Parsing a typical predicate of three comparisons (target: under 2 µs).
struct ParsingSection: BenchmarkSection {
    let name = "parsing"
    let title = "Parsing (target: a three-comparison predicate in under 2 µs)"

    static let format = #"name BEGINSWITH[c] "sa" AND population > 100000 AND countrycode == "FR""#

    func run(report: BenchmarkReport) async throws {
        let format = ParsingSection.format
        let parse = try Stopwatch.nanosecondsPerIteration(iterations: 100_000) {
            blackHole(try FormatPredicate(format: format))
        }
        report.figure("parse three comparisons", measured: parse / 1000, baseline: 2, unit: "µs",
                      target: .ratioAtMost(1), baselineName: "the 2 µs target")
        let withArguments = try Stopwatch.nanosecondsPerIteration(iterations: 100_000) {
            blackHole(try FormatPredicate(format: "name BEGINSWITH[c] %@ AND population > %d AND countrycode == %@", "sa", 100_000, "FR"))
        }
        report.figure("parse three comparisons with %@ %d %@", measured: withArguments / 1000, baseline: 2, unit: "µs",
                      target: .ratioAtMost(1), baselineName: "the 2 µs target")
        let predicate = try FormatPredicate(format: format)
        let printing = Stopwatch.nanosecondsPerIteration(iterations: 100_000) {
            blackHole(predicate.predicateFormat)
        }
        report.figure("print it back (predicateFormat)", measured: printing / 1000, baseline: 2, unit: "µs",
                      target: .none, baselineName: "the parsing target, for scale")
    }
}
