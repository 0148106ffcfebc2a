// Part of the Server trait.
#if Server
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import QueryServer
import RecordStore

extension ServeSection {
    /// Rounds of the side-by-side comparisons; each round loads both servers in turn.
    static let instrumentationRounds = 5

    /// Runs two loads in turn, ``instrumentationRounds`` times, alternating which goes first so
    /// that neither always follows the other; the figures of each, in round order.
    static func inTurn<Figure>(
        _ first: @autoclosure () async throws -> Figure, _ second: @autoclosure () async throws -> Figure
    ) async throws -> (first: [Figure], second: [Figure]) {
        var firsts: [Figure] = [], seconds: [Figure] = []
        for round in 0..<instrumentationRounds {
            if round.isMultiple(of: 2) {
                firsts.append(try await first())
                seconds.append(try await second())
            } else {
                seconds.append(try await second())
                firsts.append(try await first())
            }
        }
        return (firsts, seconds)
    }

    /// `records/query` on a server that records metrics and writes a JSON log line per request
    /// (to /dev/null) against a plain one (no metrics, no request log), over the same store: both
    /// are loaded in turn, round after round, and each figure is the median of its rounds, so that
    /// a drift of the machine touches both alike.
    func measureInstrumentation(report: BenchmarkReport, store: Store, workload: [(body: Data, query: RecordQuery, limit: Int)]) async throws {
        var plain = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, rateLimit: 0)
        plain.metrics.isRecording = false
        var instrumented = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, rateLimit: 0)
        instrumented.logsRequests = true
        instrumented.metrics.port = 0
        let devNull = FileHandle(forWritingAtPath: "/dev/null")
        let logger = Logger(label: "query.serve") { label in JSONLinesLogHandler(label: label) { line in devNull?.write(Data((line + "\n").utf8)) } }
        let (plainServing, plainPort) = try await Self.start(CloudKitServer(store: store, configuration: plain))
        defer { plainServing.cancel() }
        let (instrumentedServing, instrumentedPort) = try await Self.start(CloudKitServer(store: store, configuration: instrumented, logger: logger))
        defer { instrumentedServing.cancel() }
        func url(_ port: Int) -> URL { URL(string: "http://127.0.0.1:\(port)/database/1/iCloud.bench/production/public/records/query")! }
        let wrk = Self.executable("wrk")
        let configuration = URLSessionConfiguration.default
        configuration.httpMaximumConnectionsPerHost = Self.clientCount
        let session = URLSession(configuration: configuration)
        /// Requests a second and p99 (ms) of one load of a server.
        func load(_ port: Int) async throws -> (rate: Double, p99: Double) {
            if let wrk {
                let measured = try await Self.wrk(wrk, url: url(port), bodies: workload.map(\.body), clients: Self.clientCount)
                return (measured.rate, measured.p99)
            }
            let http = try await Self.http(session, url(port), workload, clients: Self.clientCount, requests: Self.requestCount)
            let sorted = http.latencies.sorted()
            return (Double(Self.requestCount) / http.seconds, sorted[min(sorted.count - 1, sorted.count * 99 / 100)] * 1000)
        }
        _ = try await Self.http(session, url(plainPort), workload, clients: Self.clientCount, requests: 160)
        _ = try await Self.http(session, url(instrumentedPort), workload, clients: Self.clientCount, requests: 160)
        let (plainRuns, instrumentedRuns) = try await Self.inTurn(try await load(plainPort), try await load(instrumentedPort))
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        report.figure("records/query requests/s at \(Self.clientCount) clients, metrics and JSON request log on vs off",
                      measured: median(instrumentedRuns.map(\.rate)), baseline: median(plainRuns.map(\.rate)), unit: "req/s",
                      target: .ratioAtLeast(0.95), baselineName: "the same server without metrics or request log, loaded in turn with it")
        report.figure("records/query p99 latency at \(Self.clientCount) clients, metrics and JSON request log on vs off",
                      measured: median(instrumentedRuns.map(\.p99)), baseline: median(plainRuns.map(\.p99)), unit: "ms",
                      target: .none, baselineName: "the p99 of the same server without metrics or request log")
        report.note("instrumented vs plain: medians of \(Self.instrumentationRounds) alternating rounds, "
                    + (wrk == nil ? "URLSession in this process" : "wrk in a second process"))
    }
}
#endif
