import Foundation
import PredicateLanguage
import RecordStore

/// How import and indexed queries scale: `cities1000` (170,391 records) against a 10x synthetic
/// copy (1.7 million records) generated here and never committed. Copy 0 is the dataset itself;
/// copies 1-9 put the copy number before each name (so they never match the queries' names) and
/// move each city to a random place (so the radius finds only a few of them). The same code
/// imports both from JSON lines files in the same format, and runs the same three queries.
///
/// Targets: each indexed query at most 2x slower on 10x the data; import linear (the records/s
/// of the large import at least 0.5x the small one's, measured as a ratio of rates).
struct ScaleSection: BenchmarkSection {
    let name = "scale"
    let title = "Scale: cities1000 against a 10x synthetic copy (1.7 million records)"

    static let paris = Location(latitude: 48.8566, longitude: 2.3522)

    func run(report: BenchmarkReport) async throws {
        let cities = try Datasets.jsonLines("cities1000.jsonl.gz")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("query-bench-scale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        var measurements: [(records: Int, seconds: Double, store: Store)] = []
        for copies in [1, 10] {
            let file = directory.appendingPathComponent("cities-x\(copies).jsonl").path
            try Self.writeCopies(cities, copies: copies, to: file)
            let store = try Store.open(path: directory.appendingPathComponent("cities-x\(copies).sqlite").path)
            // The defaults (IndexPolicy.automatic) index what the queries below seek: name
            // QUERYABLE (with its $cd form), location QUERYABLE (its band index).
            var importer = RecordImporter(recordType: "City")
            importer.idField = "id"
            importer.locations = [.init(name: "location", latitudeField: "latitude", longitudeField: "longitude")]
            var recordCount = 0
            let seconds = try Stopwatch.seconds(runs: 1) {
                recordCount = try importer.importFile(at: file, into: store).recordCount
            }
            try? FileManager.default.removeItem(atPath: file)
            report.note(String(format: "x%d: imported %d records in %.1f s (%.1f k records/s)", copies, recordCount, seconds, Double(recordCount) / seconds / 1000))
            measurements.append((recordCount, seconds, store))
        }
        let small = measurements[0]
        let large = measurements[1]
        report.figure("import rate, 10x data vs 1x", measured: Double(large.records) / large.seconds / 1000,
                      baseline: Double(small.records) / small.seconds / 1000, unit: "k rec/s", target: .ratioAtLeast(0.5),
                      baselineName: "the import of cities1000 alone (a ratio near 1 is linear)")

        let queries: [(String, FormatPredicate)] = [
            ("indexed equality: name == \"Springfield\"", try FormatPredicate(format: "name == %@", "Springfield")),
            ("folded prefix: name BEGINSWITH[cd] \"sao\"", try FormatPredicate(format: "name BEGINSWITH[cd] %@", "sao")),
            ("radius 50 km around Paris", try FormatPredicate(format: "distanceToLocation:fromLocation:(location, %@) < 50000", Self.paris)),
        ]
        for (label, predicate) in queries {
            var counts: [Int] = []
            var times: [Double] = []
            for measurement in measurements {
                var count = 0
                times.append(try Stopwatch.nanosecondsPerIteration(runs: 5, iterations: 20) {
                    count = try measurement.store.records(ofType: "City", matching: predicate).count
                })
                counts.append(count)
            }
            report.figure("\(label), 10x vs 1x", measured: times[1] / 1e6, baseline: times[0] / 1e6, unit: "ms", target: .ratioAtMost(2),
                          baselineName: "the same query on cities1000 alone")
            report.note("records: \(counts[0]) on 1x, \(counts[1]) on 10x")
        }
    }

    /// Writes `copies` copies of the cities as JSON lines: copy 0 as they are, the others with
    /// the copy number before each name and a random place (deterministic, seeded).
    static func writeCopies(_ cities: [[String: Value]], copies: Int, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteUnknown)
        }
        defer { try? handle.close() }
        var random = SeededGenerator(seed: 1_000)
        var buffer = Data()
        for copy in 0..<copies {
            for city in cities {
                var fields = city
                let id = fields["geonameid"].map { value -> String in
                    if case .int(let number) = value { return String(number) }
                    return value.stringValue ?? ""
                } ?? ""
                fields["id"] = .string("\(id)-\(copy)")
                if copy > 0 {
                    if let name = fields["name"]?.stringValue { fields["name"] = .string("\(copy) \(name)") }
                    fields["latitude"] = .double(Double.random(in: -60...70, using: &random))
                    fields["longitude"] = .double(Double.random(in: -180...180, using: &random))
                }
                buffer.append(contentsOf: Value.object(fields).jsonText().utf8)
                buffer.append(0x0A)
                if buffer.count > 1 << 20 {
                    try handle.write(contentsOf: buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
        }
        try handle.write(contentsOf: buffer)
    }

    /// A small deterministic generator (SplitMix64), so every run generates the same copy.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
