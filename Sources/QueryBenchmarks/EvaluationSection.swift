import Foundation
import PredicateLanguage

/// Evaluating a predicate in memory over the 34,006 cities of `cities15000`,
/// against a hand-written Swift closure (target: within 3x) and Foundation's
/// `#Predicate` on a struct with the same fields (target: faster).
struct EvaluationSection: BenchmarkSection {
    let name = "evaluation"
    let title = "Evaluation in memory over cities15000 (34,006 records)"

    static let format = #"population > 100000 AND countrycode == "FR" AND name BEGINSWITH[c] "s""#

    /// The same fields as a plain struct, for `#Predicate`.
    struct City {
        var name: String
        var countrycode: String
        var population: Int
    }

    func run(report: BenchmarkReport) async throws {
        let cities = try Datasets.jsonLines("cities15000.jsonl.gz")
        let count = Double(cities.count)
        let compiled = try CompiledPredicate(FormatPredicate(format: EvaluationSection.format))

        var ourMatches = 0
        let ours = try Stopwatch.nanosecondsPerIteration(iterations: 3) {
            var matches = 0
            for city in cities where try compiled.evaluate(city) { matches += 1 }
            ourMatches = matches
        } / count

        let handWritten: ([String: Value]) -> Bool = { city in
            guard case .int(let population)? = city["population"], population > 100_000,
                  case .string(let country)? = city["countrycode"], country == "FR",
                  case .string(let name)? = city["name"], name.lowercased().hasPrefix("s")
            else { return false }
            return true
        }
        var closureMatches = 0
        let closure = Stopwatch.nanosecondsPerIteration(iterations: 3) {
            var matches = 0
            for city in cities where handWritten(city) { matches += 1 }
            closureMatches = matches
        } / count

        let structs = cities.map { fields in
            City(name: fields["name"]?.stringValue ?? "",
                 countrycode: fields["countrycode"]?.stringValue ?? "",
                 population: Int(fields["population"]?.numericValue ?? 0))
        }
        let foundationPredicate = #Predicate<City> { city in
            // #Predicate has no case folding; for the letter "s" two prefixes say the same.
            city.population > 100_000 && city.countrycode == "FR" && (city.name.starts(with: "s") || city.name.starts(with: "S"))
        }
        var foundationMatches = 0
        let foundation = try Stopwatch.nanosecondsPerIteration(iterations: 3) {
            var matches = 0
            for city in structs where try foundationPredicate.evaluate(city) { matches += 1 }
            foundationMatches = matches
        } / count

        report.figure("compiled predicate vs hand-written closure", measured: ours, baseline: closure, unit: "ns/rec",
                      target: .ratioAtMost(3), baselineName: "a Swift closure over the same [String: Value] records")
        report.figure("compiled predicate vs Foundation #Predicate", measured: ours, baseline: foundation, unit: "ns/rec",
                      target: .ratioAtMost(1), baselineName: "#Predicate over a struct with the same fields")
        report.note("matches: ours \(ourMatches), closure \(closureMatches), #Predicate \(foundationMatches)")
        if ourMatches != closureMatches || ourMatches != foundationMatches {
            report.note("MISMATCH: the three evaluators disagree")
        }
    }
}
