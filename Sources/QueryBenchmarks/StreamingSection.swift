import Foundation
import PredicateLanguage
import RecordStore

/// Streaming cities1000 in batches: the peak memory stays flat as the record count grows.
///
/// Each size runs in a child process (this executable again, with `QUERY_BENCH_STREAM_CHILD`
/// set) that streams that many records and reports its peak resident set (`VmHWM`).
struct StreamingSection: BenchmarkSection {
    let name = "streaming"
    let title = "Streaming (cities1000 by population in batches of 100: peak RSS stays flat)"

    static let childVariable = "QUERY_BENCH_STREAM_CHILD"

    func run(report: BenchmarkReport) async throws {
        if let request = ProcessInfo.processInfo.environment[Self.childVariable] {
            try await Self.child(request)
            exit(0)
        }
        let path = try Cities1000Database.path()
        let sizes = [10_000, 50_000, Cities1000Database.recordCount]
        var streamed: [Int: Double] = [:]
        for size in sizes {
            let peak = try Self.spawn(mode: "stream", size: size, path: path)
            let loaded = try Self.spawn(mode: "array", size: size, path: path)
            streamed[size] = peak
            report.figure("stream \(size) records: peak RSS", measured: peak, baseline: loaded, unit: "MB",
                          target: .none, baselineName: "the same records loaded into one array")
        }
        // SQLite's page cache (32 MB a connection) fills while the first ~50,000 records stream by
        // (measured: 48 MB at 10,000, 61.5 MB at 50,000 and at 170,391), so flatness is judged from
        // 50,000 on, where only the record count still grows.
        if let small = streamed[10_000], let large = streamed[Cities1000Database.recordCount] {
            report.figure("peak RSS streaming 170,391 vs 10,000", measured: large, baseline: small, unit: "MB",
                          target: .none, baselineName: "streaming 10,000 records (SQLite's page cache still filling)")
        }
        if let middle = streamed[50_000], let large = streamed[Cities1000Database.recordCount] {
            report.figure("peak RSS streaming 170,391 vs 50,000", measured: large, baseline: middle, unit: "MB",
                          target: .ratioAtMost(1.25), baselineName: "streaming 50,000 records")
        }
    }

    /// Runs this executable as a child and returns its peak RSS in MB.
    static func spawn(mode: String, size: Int, path: String) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["streaming"]
        var environment = ProcessInfo.processInfo.environment
        environment[childVariable] = "\(mode):\(size)"
        environment["QUERY_BENCH_CITIES_DB"] = path
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("PEAK-RSS-KB ") }),
              let kilobytes = Double(line.dropFirst("PEAK-RSS-KB ".count)) else {
            throw ChildFailure(output: output)
        }
        return kilobytes / 1024
    }

    struct ChildFailure: Error, CustomStringConvertible {
        var output: String
        var description: String { "the streaming child process printed no peak RSS: \(output.suffix(500))" }
    }

    /// The child: streams (or loads) `size` records, then prints `PEAK-RSS-KB n`.
    static func child(_ request: String) async throws {
        let parts = request.split(separator: ":")
        guard parts.count == 2, let size = Int(parts[1]),
              let path = ProcessInfo.processInfo.environment["QUERY_BENCH_CITIES_DB"] else { return }
        let store = try Store.open(path: path)
        let query = try RecordQuery(recordType: "City", predicate: .truePredicate, sorts: [Sort("population", ascending: false)])
        var count = 0
        var checksum = 0
        if parts[0] == "array" {
            let records = try await store.records(ofType: "City", matching: .truePredicate, sorts: query.sorts, limit: size)
            count = records.count
            checksum = records.reduce(0) { $0 &+ $1.fields.count }
        } else {
            for try await record in store.stream(matching: query, batchSize: 100) {
                count += 1
                checksum &+= record.fields.count
                if count == size { break }
            }
        }
        blackHole(checksum)
        print("COUNT \(count)")
        print("PEAK-RSS-KB \(peakResidentKilobytes())")
    }

    /// `VmHWM` from `/proc/self/status`, in kB (0 where unavailable).
    static func peakResidentKilobytes() -> Int {
        PeakMemory.kilobytes(ofProcess: "self") ?? 0
    }
}
