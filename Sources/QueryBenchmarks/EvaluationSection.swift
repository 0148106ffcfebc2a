import Foundation
import PredicateLanguage

/// Evaluating a predicate in memory over the 34,006 cities of `cities15000`,
/// against a hand-written Swift closure over the same `[String: Value]` records
/// (target: within 1.5x) and Foundation's `#Predicate` on a struct with the same
/// fields (target: at most 0.7x).
///
/// The three evaluators take turns in each of five runs, so a disturbance on the
/// machine falls on all three; each run keeps the best of three passes over the
/// records. A fourth, for information, runs the predicate compiled against the structs'
/// field layout. The figures are the medians of the five runs, judged on their ratio;
/// the notes give each evaluator's spread (min / median / max).
struct EvaluationSection: BenchmarkSection {
    let name = "evaluation"
    let title = "Evaluation in memory over cities15000 (34,006 records)"

    static let format = #"population > 100000 AND countrycode == "FR" AND name BEGINSWITH[c] "s""#
    /// Runs measured; each gives one per-record figure per evaluator.
    static let runs = 5
    /// Passes over the records in one run; the run keeps the fastest.
    static let passesPerRun = 3

    /// The same fields as a plain struct, for `#Predicate`, and for our predicate compiled
    /// against the struct's field layout.
    struct City: FieldLayoutReadable {
        var name: String
        var countrycode: String
        var population: Int

        func value(forKey key: String) -> Value {
            switch key {
            case "name": .string(name)
            case "countrycode": .string(countrycode)
            case "population": .int(Int64(population))
            default: .null
            }
        }

        static func fieldReader(forKey key: String) -> FieldReader<City>? {
            switch key {
            case "name": FieldReader { .string($0.name) }
            case "countrycode": FieldReader { .string($0.countrycode) }
            case "population": FieldReader { .int(Int64($0.population)) }
            default: nil
            }
        }
    }

    func run(report: BenchmarkReport) async throws {
        let cities = try Datasets.jsonLines("cities15000.jsonl.gz")
        let count = Double(cities.count)
        let compiled = try CompiledPredicate(FormatPredicate(format: EvaluationSection.format))
        let layoutCompiled = try CompiledPredicate(FormatPredicate(format: EvaluationSection.format), layout: City.self)

        let handWritten: ([String: Value]) -> Bool = { city in
            guard case .int(let population)? = city["population"], population > 100_000,
                  case .string(let country)? = city["countrycode"], country == "FR",
                  case .string(let name)? = city["name"], name.lowercased().hasPrefix("s")
            else { return false }
            return true
        }

        let structs = cities.map { fields in
            City(name: fields["name"]?.stringValue ?? "",
                 countrycode: fields["countrycode"]?.stringValue ?? "",
                 population: Int(fields["population"]?.numericValue ?? 0))
        }
        let foundationPredicate = #Predicate<City> { city in
            // #Predicate has no case folding; for the letter "s" two prefixes say the same.
            city.population > 100_000 && city.countrycode == "FR" && (city.name.starts(with: "s") || city.name.starts(with: "S"))
        }

        var ourMatches = 0
        var closureMatches = 0
        var foundationMatches = 0
        var layoutMatches = 0
        var ours: [Double] = []
        var layout: [Double] = []
        var closure: [Double] = []
        var foundation: [Double] = []
        for _ in 0..<EvaluationSection.runs {
            ours.append(try Stopwatch.nanosecondsPerIteration(runs: EvaluationSection.passesPerRun, iterations: 1) {
                var matches = 0
                for city in cities where try compiled.evaluate(city) { matches += 1 }
                ourMatches = matches
            } / count)
            closure.append(Stopwatch.nanosecondsPerIteration(runs: EvaluationSection.passesPerRun, iterations: 1) {
                var matches = 0
                for city in cities where handWritten(city) { matches += 1 }
                closureMatches = matches
            } / count)
            foundation.append(try Stopwatch.nanosecondsPerIteration(runs: EvaluationSection.passesPerRun, iterations: 1) {
                var matches = 0
                for city in structs where try foundationPredicate.evaluate(city) { matches += 1 }
                foundationMatches = matches
            } / count)
            layout.append(try Stopwatch.nanosecondsPerIteration(runs: EvaluationSection.passesPerRun, iterations: 1) {
                var matches = 0
                for city in structs where try layoutCompiled.evaluate(city) { matches += 1 }
                layoutMatches = matches
            } / count)
        }
        let ourSpread = Spread(ours)
        let closureSpread = Spread(closure)
        let foundationSpread = Spread(foundation)
        let layoutSpread = Spread(layout)

        report.figure("compiled predicate vs hand-written closure", measured: ourSpread.median, baseline: closureSpread.median,
                      unit: "ns/rec", target: .ratioAtMost(1.5), baselineName: "a Swift closure over the same [String: Value] records")
        report.figure("compiled predicate vs Foundation #Predicate", measured: ourSpread.median, baseline: foundationSpread.median,
                      unit: "ns/rec", target: .ratioAtMost(0.7), baselineName: "#Predicate over a struct with the same fields")
        report.figure("compiled against the struct's layout vs #Predicate", measured: layoutSpread.median,
                      baseline: foundationSpread.median, unit: "ns/rec", target: .none,
                      baselineName: "#Predicate over the same structs (keys resolved to fields once, when compiling)")
        report.note("spread of \(EvaluationSection.runs) runs (min / median / max), each the best of \(EvaluationSection.passesPerRun) passes:")
        report.note("  compiled predicate  \(ourSpread.text(unit: "ns/rec"))")
        report.note("  closure             \(closureSpread.text(unit: "ns/rec"))")
        report.note("  #Predicate          \(foundationSpread.text(unit: "ns/rec"))")
        report.note("  layout-compiled     \(layoutSpread.text(unit: "ns/rec"))")
        let closureRatios = zip(ours, closure).map { $0 / $1 }
        let foundationRatios = zip(ours, foundation).map { $0 / $1 }
        report.note("  ratio per run vs closure     \(Spread(closureRatios).text(unit: "x"))")
        report.note("  ratio per run vs #Predicate  \(Spread(foundationRatios).text(unit: "x"))")
        report.note("matches: ours \(ourMatches), closure \(closureMatches), #Predicate \(foundationMatches), layout-compiled \(layoutMatches)")
        if ourMatches != closureMatches || ourMatches != foundationMatches || ourMatches != layoutMatches {
            report.note("MISMATCH: the three evaluators disagree")
        }
    }
}
