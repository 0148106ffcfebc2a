import Foundation

/// `query find` and `query export` with no `--limit`: records are written as they are read, so
/// the process's peak memory is the same for 10,356 records as for all 170,391 of cities1000.
///
/// Each figure runs the `query` executable built beside `query-bench` (build both:
/// `swift build -c release --product query` too) as a child, its output to `/dev/null`, and
/// reads the child's own peak resident set (``PeakMemory``: `VmHWM`, read every 2 ms until it
/// exits; `wait4`'s `ru_maxrss` would carry the bench's own peak into a spawned child).
struct CommandOutputSection: BenchmarkSection {
    let name = "output"
    let title = "Command output (query find / export of cities1000 with no --limit: peak memory stays flat)"

    /// `population > 60000` matches 10,356 cities of cities1000.
    static let smallPredicate = "population > 60000"

    func run(report: BenchmarkReport) async throws {
        let query = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("query").path
        guard FileManager.default.isExecutableFile(atPath: query) else {
            report.note("no query executable beside query-bench (\(query)): build it with `swift build -c release --product query`")
            return
        }
        let path = try Cities1000Database.path()
        let runs: [(label: String, arguments: [String])] = [
            ("find --output jsonl", ["find", "--db", path, "City", "%@", "--output", "jsonl"]),
            ("find --output table", ["find", "--db", path, "City", "%@", "--output", "table"]),
            ("export --output csv", ["export", "--db", path, "City", "%@", "--output", "csv"]),
        ]
        for run in runs {
            let small = try Self.peakMegabytes(query, run.arguments.map { $0 == "%@" ? Self.smallPredicate : $0 })
            let large = try Self.peakMegabytes(query, run.arguments.map { $0 == "%@" ? "TRUEPREDICATE" : $0 })
            report.figure("\(run.label): peak RSS, 170,391 records", measured: large, baseline: small, unit: "MB",
                          target: .ratioAtMost(1.25), baselineName: "the same command for 10,356 records")
        }
    }

    /// Runs the executable with its output to /dev/null and answers its peak RSS in MB.
    static func peakMegabytes(_ executable: String, _ arguments: [String]) throws -> Double {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        let cArguments = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var processID: pid_t = 0
        let spawned = posix_spawn(&processID, executable, &actions, nil, cArguments, environ)
        guard spawned == 0 else { throw ChildFailure(description: "could not start \(executable): error \(spawned)") }
        // VmHWM only grows while the child lives; the last reading before it exits is its peak.
        var peak = 0
        var status: Int32 = 0
        while true {
            if let reading = PeakMemory.kilobytes(ofProcess: String(processID)) { peak = max(peak, reading) }
            let waited = waitpid(processID, &status, WNOHANG)
            if waited == processID { break }
            guard waited == 0 || errno == EINTR else { throw ChildFailure(description: "waitpid failed: error \(errno)") }
            usleep(2_000)
        }
        guard status == 0 else { throw ChildFailure(description: "query \(arguments.joined(separator: " ")) exited with status \(status)") }
        return Double(peak) / 1024
    }

    struct ChildFailure: Error, CustomStringConvertible {
        var description: String
    }
}
