// Part of the Server trait.
#if Server
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PredicateLanguage
import QueryServer
import RecordStore

/// `query serve` over HTTP against the same work in-process: `records/query` (indexed equality,
/// range + sort, full text, radius) from 1 and 16 keep-alive clients beside the same queries run
/// through the store by 1 and 16 tasks, with latency percentiles; the same over plain HTTP and over
/// TLS from curl (a second process) when curl and openssl are installed; and `records/modify` with
/// 200-operation requests beside `Store.modify` of the same records.
struct ServeSection: BenchmarkSection {
    let name = "serve"
    let title = "query serve (cities1000 on SQLite): CloudKit Web Services over HTTP against the same queries in-process"

    static let requestCount = 1_600
    static let clientCount = 16

    /// The four queries, as `records/query` bodies and as the store's queries.
    static func workload() throws -> [(body: Data, query: RecordQuery, limit: Int)] {
        let paris: [String: Any] = ["latitude": 48.8566, "longitude": 2.3522]
        let bodies: [[String: Any]] = [
            ["resultsLimit": 100, "query": ["recordType": "City", "filterBy": [
                ["comparator": "EQUALS", "fieldName": "name", "fieldValue": ["value": "Springfield"]]]]],
            ["resultsLimit": 50, "query": ["recordType": "City", "filterBy": [
                ["comparator": "GREATER_THAN_OR_EQUALS", "fieldName": "population", "fieldValue": ["value": 100_000]],
                ["comparator": "LESS_THAN_OR_EQUALS", "fieldName": "population", "fieldValue": ["value": 200_000]]],
                "sortBy": [["fieldName": "population", "ascending": false]]]],
            ["resultsLimit": 100, "query": ["recordType": "City", "filterBy": [
                ["comparator": "CONTAINS_ALL_TOKENS", "fieldName": "allTokens", "fieldValue": ["value": "springfield"]]]]],
            ["resultsLimit": 200, "query": ["recordType": "City", "filterBy": [
                ["comparator": "NEAR", "fieldName": "location", "distance": 20_000, "fieldValue": ["value": paris, "type": "LOCATION"]]]]],
        ]
        let queries: [(String, [Value], [Sort], Int)] = [
            ("name == %@", ["Springfield"], [], 100),
            ("population >= 100000 AND population <= 200000", [], [Sort("population", ascending: false)], 50),
            ("self CONTAINS %@", ["springfield"], [], 100),
            ("distanceToLocation:fromLocation:(location, %@) < 20000", [.location(Location(latitude: 48.8566, longitude: 2.3522))], [], 200),
        ]
        return try zip(bodies, queries).map { body, query in
            (try JSONSerialization.data(withJSONObject: body),
             try RecordQuery(recordType: "City", predicate: FormatPredicate(format: query.0, argumentArray: query.1), sorts: query.2),
             query.3)
        }
    }

    func run(report: BenchmarkReport) async throws {
        let store = try Store.open(path: try Cities1000Database.path())
        let workload = try Self.workload()
        let (serving, port) = try await Self.start(CloudKitServer(store: store, configuration: .init(host: "127.0.0.1", port: 0, rateLimit: 0)))
        defer { serving.cancel() }
        let url = URL(string: "http://127.0.0.1:\(port)/database/1/iCloud.bench/production/public/records/query")!
        let configuration = URLSessionConfiguration.default
        configuration.httpMaximumConnectionsPerHost = Self.clientCount
        let session = URLSession(configuration: configuration)

        // Warm both sides (connections, page cache, statements).
        _ = try await Self.http(session, url, workload, clients: Self.clientCount, requests: 160)
        _ = try await Self.inProcess(store, workload, tasks: Self.clientCount, requests: 160)

        let wrk = Self.executable("wrk")
        var localRates: [Int: Double] = [:]
        for clients in [1, Self.clientCount] {
            let local = try await Self.inProcess(store, workload, tasks: clients, requests: Self.requestCount)
            let localRate = Double(Self.requestCount) / local
            localRates[clients] = localRate
            let rate: Double
            var percentiles: (p50: Double, p99: Double)?
            if let wrk {
                // A second process drives the server: the server's figure is not the client's.
                let measured = try await Self.wrk(wrk, url: url, bodies: workload.map(\.body), clients: clients)
                rate = measured.rate
                percentiles = (measured.p50, measured.p99)
            } else {
                let http = try await Self.http(session, url, workload, clients: clients, requests: Self.requestCount)
                rate = Double(Self.requestCount) / http.seconds
                let sorted = http.latencies.sorted()
                percentiles = (sorted[sorted.count / 2] * 1000, sorted[min(sorted.count - 1, sorted.count * 99 / 100)] * 1000)
            }
            report.figure("records/query requests/s, \(clients) HTTP client\(clients == 1 ? "" : "s") vs \(clients) in-process task\(clients == 1 ? "" : "s")",
                          measured: rate, baseline: localRate, unit: "req/s",
                          target: clients == 1 ? .none : .ratioAtLeast(0.5),
                          baselineName: "the same four queries through the store, in-process")
            if clients == Self.clientCount, let percentiles {
                report.figure("records/query p99 latency at \(clients) clients vs p50", measured: percentiles.p99, baseline: percentiles.p50, unit: "ms",
                              target: .ratioAtMost(5), baselineName: "the median latency of the same requests")
            }
        }
        report.note(wrk.map { "HTTP load from \($0) (wrk, a second process, keep-alive connections)" }
                    ?? "HTTP load from URLSession in this process (install wrk for a second process: apt-get install wrk)")
        try await measureCurl(report: report, store: store, bodies: workload.map(\.body), localRates: localRates, plainURL: url)
        try await measureModify(report: report, session: session, port: port)
        try await measureInstrumentation(report: report, store: store, workload: workload)
        try await measureSecurityRoles(report: report, store: store, workload: workload)
        report.note("\(ProcessInfo.processInfo.activeProcessorCount) cores shared by the server and its clients; queries: name EQUALS, population range sorted, allTokens, NEAR 20 km")
    }

    /// `records/modify` with 200 creates a request, against `Store.modify` of the same records.
    private func measureModify(report: BenchmarkReport, session: URLSession, port: Int) async throws {
        let store = Store.inMemory()
        let batches = 20
        var httpSeconds = 0.0
        for batch in 0..<batches {
            let operations: [[String: Any]] = (0..<200).map { index in
                ["operationType": "create", "record": ["recordName": "h\(batch)-\(index)", "recordType": "Note",
                                                        "fields": ["title": ["value": "note \(index)"], "rank": ["value": index]]]]
            }
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/database/1/iCloud.bench/development/public/records/modify")!)
            request.httpMethod = "POST"
            request.httpBody = try JSONSerialization.data(withJSONObject: ["operations": operations])
            let start = DispatchTime.now().uptimeNanoseconds
            let (_, response) = try await session.data(for: request)
            httpSeconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw BenchmarkFailure("records/modify answered \(response)") }
        }
        var localSeconds = 0.0
        for batch in 0..<batches {
            let records = (0..<200).map { index in
                Record(recordType: "Note", recordID: RecordID(recordName: "l\(batch)-\(index)"), fields: ["title": .string("note \(index)"), "rank": .int(Int64(index))])
            }
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try await store.modify(saving: records, deleting: [])
            localSeconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        report.figure("records/modify, 200 creates a request: records/s", measured: Double(batches * 200) / httpSeconds,
                      baseline: Double(batches * 200) / localSeconds, unit: "rec/s", target: .none,
                      baselineName: "Store.modify of the same records in-process (the server writes to the served SQLite file, the baseline to memory)")
    }

    /// `records/query` over plain HTTP and over TLS (a self-signed certificate made with openssl)
    /// from curl, a second process with keep-alive connections (`--parallel`), at 1 and 16
    /// clients, beside the same queries in-process; with the p99 latency of each.
    private func measureCurl(report: BenchmarkReport, store: Store, bodies: [Data], localRates: [Int: Double], plainURL: URL) async throws {
        guard let curl = Self.executable("curl"), let openssl = Self.executable("openssl") else {
            report.note("no HTTP-versus-TLS figures: curl and openssl are needed (apt-get install curl openssl)")
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("query-bench-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        _ = try await Self.runProcess(openssl, [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key, "-out", certificate,
        ])
        var bodyFiles: [String] = []
        for (index, body) in bodies.enumerated() {
            let path = directory.appendingPathComponent("body\(index).json").path
            try body.write(to: URL(fileURLWithPath: path))
            bodyFiles.append(path)
        }
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, rateLimit: 0)
        configuration.tls = TLSFiles(certificatePath: certificate, keyPath: key)
        let (serving, port) = try await Self.start(CloudKitServer(store: store, configuration: configuration))
        defer { serving.cancel() }
        let tlsURL = URL(string: "https://localhost:\(port)/database/1/iCloud.bench/production/public/records/query")!
        // Warm both servers.
        _ = try await Self.curlLoad(curl, url: plainURL, bodyFiles: bodyFiles, clients: Self.clientCount, requests: 160, certificate: nil)
        _ = try await Self.curlLoad(curl, url: tlsURL, bodyFiles: bodyFiles, clients: Self.clientCount, requests: 160, certificate: certificate)
        for clients in [1, Self.clientCount] {
            let plain = try await Self.curlLoad(curl, url: plainURL, bodyFiles: bodyFiles, clients: clients, requests: Self.requestCount, certificate: nil)
            let tls = try await Self.curlLoad(curl, url: tlsURL, bodyFiles: bodyFiles, clients: clients, requests: Self.requestCount, certificate: certificate)
            let local = localRates[clients] ?? 0
            let plural = clients == 1 ? "" : "s"
            report.figure("records/query requests/s over HTTP from curl, \(clients) client\(plural) vs \(clients) in-process task\(plural)",
                          measured: plain.rate, baseline: local, unit: "req/s", target: .none,
                          baselineName: "the same four queries through the store, in-process")
            report.figure("records/query requests/s over TLS from curl, \(clients) client\(plural) vs \(clients) in-process task\(plural)",
                          measured: tls.rate, baseline: local, unit: "req/s", target: .none,
                          baselineName: "the same four queries through the store, in-process")
            report.figure("records/query p99 latency over HTTP from curl at \(clients) client\(plural) vs p50", measured: plain.p99, baseline: plain.p50,
                          unit: "ms", target: .none, baselineName: "the median latency of the same requests")
            report.figure("records/query p99 latency over TLS from curl at \(clients) client\(plural) vs p99 over HTTP", measured: tls.p99, baseline: plain.p99,
                          unit: "ms", target: .none, baselineName: "the p99 latency of the same requests over plain HTTP")
        }
        report.note("HTTP and TLS load from \(curl) (a second process, --parallel keep-alive connections, TLS 1.3 to a self-signed P-256 certificate)")
    }

    /// Starts a server; the task that runs it (cancel it to stop the server) and its port.
    static func start(_ server: CloudKitServer) async throws -> (task: Task<Void, any Error>, port: Int) {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let serving = Task { try await server.run { continuation.yield($0) } }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            serving.cancel()
            throw BenchmarkFailure("the server stopped before it listened")
        }
        return (serving, port)
    }

    /// Requests a second and latency percentiles (ms) of `requests` POSTs of the bodies in turn
    /// from one curl process with `clients` parallel connections.
    static func curlLoad(_ curl: String, url: URL, bodyFiles: [String], clients: Int, requests: Int, certificate: String?) async throws -> (rate: Double, p50: Double, p99: Double) {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("query-bench-curl-\(UUID().uuidString).conf")
        var lines: [String] = []
        for index in 0..<requests {
            lines += ["silent", "url = \"\(url.absoluteString)\"", "data-binary = \"@\(bodyFiles[index % bodyFiles.count])\"",
                      "header = \"Content-Type: text/plain\"", "output = \"/dev/null\"", "write-out = \"%{time_total} %{http_code}\\n\""]
            if let certificate { lines.append("cacert = \"\(certificate)\"") }
            if index < requests - 1 { lines.append("next") }
        }
        try lines.joined(separator: "\n").write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        let start = DispatchTime.now().uptimeNanoseconds
        let output = try await Self.runProcess(curl, ["--silent", "--no-progress-meter", "--parallel", "--parallel-max", "\(clients)", "--config", config.path])
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        var latencies: [Double] = []
        // Each transfer writes "TIME STATUS"; whatever else curl prints is skipped.
        let words = output.split(whereSeparator: \.isWhitespace)
        for (time, status) in zip(words, words.dropFirst()) where time.contains(".") && status.count == 3 {
            guard let seconds = Double(time), let code = Int(status) else { continue }
            guard code == 200 else { throw BenchmarkFailure("records/query answered HTTP \(code) under curl") }
            latencies.append(seconds * 1000)
        }
        guard latencies.count == requests else { throw BenchmarkFailure("curl made \(latencies.count) of \(requests) requests:\n\(output.prefix(500))") }
        latencies.sort()
        return (Double(requests) / seconds, latencies[latencies.count / 2], latencies[min(latencies.count - 1, latencies.count * 99 / 100)])
    }

    /// An executable on the path, if any.
    static func executable(_ name: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let path = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Requests a second and latency percentiles (ms) from `wrk` posting the bodies in turn for 4 seconds.
    static func wrk(
        _ wrk: String, url: URL, bodies: [Data], headers: [[String: String]]? = nil, clients: Int
    ) async throws -> (rate: Double, p50: Double, p99: Double) {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("query-bench-\(UUID().uuidString).lua")
        let list = bodies.map { "[==[" + String(decoding: $0, as: UTF8.self) + "]==]" }.joined(separator: ",\n")
        // Each body's own header fields (a signature covers its body), beside the content type.
        let fields = bodies.indices.map { index in
            let pairs = [("Content-Type", "text/plain")] + (headers?[index] ?? [:]).sorted { $0.key < $1.key }
            return "{" + pairs.map { "[\"\($0.0)\"] = \"\($0.1)\"" }.joined(separator: ", ") + "}"
        }.joined(separator: ",\n")
        try """
            local bodies = {\(list)}
            local headers = {\(fields)}
            local count = 0
            request = function()
              count = count + 1
              local index = (count % #bodies) + 1
              return wrk.format("POST", nil, headers[index], bodies[index])
            end
            """.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let output = try await Self.runProcess(wrk, ["-t", "\(min(clients, 2))", "-c", "\(clients)", "-d", "4s", "--latency", "-s", script.path, url.absoluteString])
        func number(after label: String) -> Double? {
            guard let line = output.split(separator: "\n").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }) else { return nil }
            guard let field = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(label.split(separator: " ").count).first else { return nil }
            // Latencies come as 812.00us, 12.34ms or 1.20s.
            for (suffix, scale) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0)] where field.hasSuffix(suffix) {
                return Double(field.dropLast(suffix.count)).map { $0 * scale }
            }
            return Double(field)
        }
        guard let rate = number(after: "Requests/sec:"), let p50 = number(after: "50%"), let p99 = number(after: "99%") else {
            throw BenchmarkFailure("wrk printed no figures:\n\(output)")
        }
        if output.contains("Non-2xx") { throw BenchmarkFailure("the server refused requests under wrk:\n\(output)") }
        return (rate, p50, p99)
    }

    /// Runs a program to its end on a thread of its own; its output.
    static func runProcess(_ executable: String, _ arguments: [String]) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments
                let pipe = Pipe()
                process.standardOutput = pipe
                process.standardError = pipe
                do {
                    try process.run()
                    let data = try pipe.fileHandleForReading.readToEnd() ?? Data()
                    process.waitUntilExit()
                    continuation.resume(returning: String(decoding: data, as: UTF8.self))
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }

    /// Seconds for `requests` HTTP requests over `clients` concurrent clients, and each request's latency.
    static func http(_ session: URLSession, _ url: URL, _ workload: [(body: Data, query: RecordQuery, limit: Int)], clients: Int, requests: Int) async throws -> (seconds: Double, latencies: [Double]) {
        let start = DispatchTime.now().uptimeNanoseconds
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for client in 0..<clients {
                group.addTask {
                    var latencies: [Double] = []
                    for index in stride(from: client, to: requests, by: clients) {
                        var request = URLRequest(url: url)
                        request.httpMethod = "POST"
                        request.httpBody = workload[index % workload.count].body
                        let begin = DispatchTime.now().uptimeNanoseconds
                        let (data, response) = try await session.data(for: request)
                        latencies.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9)
                        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
                            throw BenchmarkFailure("records/query answered \(String(decoding: data.prefix(300), as: UTF8.self))")
                        }
                    }
                    return latencies
                }
            }
            var all: [Double] = []
            for try await latencies in group { all += latencies }
            return all
        }
        return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, latencies)
    }

    /// Seconds for the same queries through the store from `tasks` concurrent tasks.
    static func inProcess(_ store: Store, _ workload: [(body: Data, query: RecordQuery, limit: Int)], tasks: Int, requests: Int) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var found = 0
                    for index in stride(from: task, to: requests, by: tasks) {
                        let entry = workload[index % workload.count]
                        found += try await store.records(matching: entry.query, resultsLimit: entry.limit).records.count
                    }
                    return found
                }
            }
            var total = 0
            for try await found in group { total += found }
            blackHole(total)
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}

/// A benchmark that could not measure what it meant to.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
#endif
