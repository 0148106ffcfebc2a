import Foundation
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

        let body = try Self.modifyBody()
        let reading = try Stopwatch.nanosecondsPerIteration(iterations: 20_000) {
            blackHole(try JSONValue(parsing: body))
        }
        let foundation = try Stopwatch.nanosecondsPerIteration(iterations: 20_000) {
            blackHole(try JSONSerialization.jsonObject(with: Data(body)))
        }
        report.figure("read a records/modify body of 10 records (\(body.count) bytes) as the server does (JSONValue)", measured: reading / 1000, baseline: foundation / 1000,
                      unit: "µs", target: .ratioAtMost(1), baselineName: "Foundation's JSONSerialization reading the same bytes")
    }

    /// A `records/modify` body of 10 new records with a title, a rank and a score, as the writes
    /// section's clients send.
    static func modifyBody() throws -> [UInt8] {
        let operations = (0..<10).map { index -> [String: Any] in
            ["operationType": "create", "record": ["recordName": "note-\(index)", "recordType": "Note", "fields": [
                "title": ["value": "note \(index)"], "rank": ["value": index], "score": ["value": Double(index) / 3]]]]
        }
        return Array(try JSONSerialization.data(withJSONObject: ["zoneID": ["zoneName": "bench-0"], "operations": operations]))
    }
}
