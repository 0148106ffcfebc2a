import Foundation
import PredicateLanguage
import QueryBuilder
import RecordStore

/// Foundation's `#Predicate` over `cities1000` as models: Foundation's own evaluation over an
/// array in memory against the store's fetch on SQLite of the same predicate, converted and run in
/// SQL (indexed equality, range + sort + limit, prefix); and the conversion's own cost per
/// predicate (target: under 5 µs).
struct PredicateSection: BenchmarkSection {
    let name = "predicate"
    let title = "Foundation #Predicate: in memory against the store (cities1000)"

    /// A city as a model (the record type `City` of the imported file).
    struct City: Queryable {
        /// The record's name (its geonameid), filled from the record's metadata.
        var recordName: String?
        var name: String
        var population: Int
        var countrycode: String

        enum Attribute: String, CaseIterable { case name, population, countrycode }

        static var attributeKeyPaths: [PartialKeyPath<City>: Attribute] {
            [\.name: .name, \.population: .population, \.countrycode: .countrycode]
        }
    }

    func run(report: BenchmarkReport) async throws {
        let cities = try Datasets.jsonLines(StoreSection.dataset).compactMap { fields -> City? in
            guard case .int(let id)? = fields["geonameid"], case .string(let name)? = fields["name"] else { return nil }
            let population: Int = if case .int(let value)? = fields["population"] { Int(value) } else { 0 }
            let country: String = if case .string(let value)? = fields["countrycode"] { value } else { "" }
            return City(recordName: String(id), name: name, population: population, countrycode: country)
        }
        report.note("\(cities.count) cities as models in memory; the store: \(try Cities1000Database.path())")
        let context = ModelContext(store: try Store.open(path: try Cities1000Database.path()))

        let springfield = #Predicate<City> { $0.name == "Springfield" }
        try measure(report, context: context, cities: cities, name: "indexed equality: name == \"Springfield\"",
                    descriptor: FetchDescriptor(predicate: springfield)) { try $0.filter { try springfield.evaluate($0) } }

        let middle = #Predicate<City> { $0.population >= 100_000 && $0.population <= 200_000 }
        var ranged = FetchDescriptor<City>(predicate: middle, sortBy: [SortDescriptor(\City.population, order: .reverse)])
        ranged.fetchLimit = 50
        try measure(report, context: context, cities: cities, name: "range, sort, limit 50: population 100k-200k", descriptor: ranged) {
            Array(try $0.filter { try middle.evaluate($0) }.sorted { ($0.population, $1.recordName ?? "") > ($1.population, $0.recordName ?? "") }.prefix(50))
        }

        let prefix = #Predicate<City> { $0.name.starts(with: "San ") }
        try measure(report, context: context, cities: cities, name: "prefix: name.starts(with: \"San \")",
                    descriptor: FetchDescriptor(predicate: prefix)) { try $0.filter { try prefix.evaluate($0) } }

        let predicates = [springfield, middle, prefix, #Predicate<City> { $0.countrycode == "FR" && ($0.population > 1_000_000 || $0.name.contains("Saint")) }]
        let nanoseconds = try Stopwatch.nanosecondsPerIteration(iterations: 2_000) {
            for predicate in predicates { blackHole(try FormatPredicate(predicate)) }
        } / Double(predicates.count)
        report.figure("conversion of one #Predicate", measured: nanoseconds / 1000, baseline: 5, unit: "µs", target: .ratioAtMost(1),
                      baselineName: "the target, 5 µs (the mean over 4 predicates of 1 to 5 conditions)")
    }

    /// One predicate: the store's fetch of its models against Foundation's evaluation of the array.
    private func measure(
        _ report: BenchmarkReport, context: ModelContext, cities: [City], name: String,
        descriptor: FetchDescriptor<City>, inMemory: ([City]) throws -> [City]
    ) throws {
        let fetched = try context.fetch(descriptor)
        let evaluated = try inMemory(cities)
        let storeTime = try Stopwatch.seconds(runs: 5) { blackHole(try context.fetch(descriptor)) }
        let memoryTime = try Stopwatch.seconds(runs: 3) { blackHole(try inMemory(cities)) }
        report.figure(name, measured: storeTime * 1000, baseline: memoryTime * 1000, unit: "ms", target: .none,
                      baselineName: "Foundation's Predicate.evaluate over the \(cities.count) models in an array")
        // Without sorts, the order is the store's own (by record name): compare the sets.
        let (ours, theirs) = descriptor.sortBy.isEmpty
            ? (fetched.compactMap(\.recordName).sorted(), evaluated.compactMap(\.recordName).sorted())
            : (fetched.compactMap(\.recordName), evaluated.compactMap(\.recordName))
        if ours != theirs {
            report.note("different answers: \(fetched.count) fetched, \(evaluated.count) evaluated")
        } else {
            report.note("\(fetched.count) models, the same in both")
        }
    }
}
