import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import QueryServer
import RecordStore

/// The samples of a Prometheus text exposition (`GET /metrics`), read line by line: enough for
/// tests to look a sample up by its name and exact labels. (`MetricsTests` also has the text read
/// by prometheus-client's own parser.)
struct MetricsScrape {
    /// One sample: a name, its labels, and its value.
    struct Sample: Equatable {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    let text: String
    let samples: [Sample]

    init(_ text: String) {
        self.text = text
        samples = text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { return nil }
            let series = line[..<space]
            guard let brace = series.firstIndex(of: "{") else { return Sample(name: String(series), labels: [:], value: value) }
            var labels: [String: String] = [:]
            // Label values here never hold a comma or a quote.
            for pair in series[series.index(after: brace)..<series.index(before: series.endIndex)].split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                labels[String(parts[0])] = String(parts[1].dropFirst().dropLast())
            }
            return Sample(name: String(series[..<brace]), labels: labels, value: value)
        }
    }

    /// The value of the sample with this name and exactly these labels (nil: no such sample).
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    /// The value of the sample with this name whose labels include these (nil: none).
    func value(_ name: String, including labels: [String: String]) -> Double? {
        samples.first { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }?.value
    }

    /// The sum of the samples with this name whose labels include these.
    func sum(_ name: String, including labels: [String: String] = [:]) -> Double {
        samples.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }.map(\.value).reduce(0, +)
    }
}

/// A server with its metrics port, for the length of a test.
struct MetricsHarness {
    let port: Int
    let metricsPort: Int
    let store: Store
    let server: CloudKitServer

    /// Runs `body` with a server over `store` listening on a free port, and its metrics on another.
    static func withServer<T: Sendable>(
        store: Store, configuration: CloudKitServer.Configuration = .init(host: "127.0.0.1", port: 0),
        _ body: @Sendable (MetricsHarness) async throws -> T
    ) async throws -> T {
        var configuration = configuration
        configuration.metrics.port = 0
        var logger = Logger(label: "query.serve.tests")
        logger.logLevel = .critical
        let server = CloudKitServer(store: store, configuration: configuration, logger: logger)
        let (ports, continuation) = AsyncStream.makeStream(of: (main: Bool, port: Int).self)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await server.run { port in continuation.yield((true, port)) } onMetricsListening: { port in continuation.yield((false, port)) }
                return nil
            }
            var main: Int?
            var metrics: Int?
            for await (isMain, port) in ports {
                if isMain { main = port } else { metrics = port }
                if main != nil, metrics != nil { break }
            }
            guard let main, let metrics else { throw CancellationError() }
            let result = try await body(MetricsHarness(port: main, metricsPort: metrics, store: store, server: server))
            group.cancelAll()
            return result
        }
    }

    /// Sends a request to a port and returns the status and the raw body.
    static func fetch(_ method: String, port: Int, _ path: String, body: String? = nil, headers: [String: String] = [:]) async throws -> (status: Int, data: Data) {
        let (data, response) = try await ServerHarness.exchange(method, port: port, path, body: body, headers: headers)
        return (response?.statusCode ?? 0, data)
    }

    /// Sends a request to the main port.
    func fetch(_ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:]) async throws -> (status: Int, data: Data) {
        try await Self.fetch(method, port: port, path, body: body, headers: headers)
    }

    /// Scrapes the metrics port.
    func scrape() async throws -> MetricsScrape {
        let (_, data) = try await Self.fetch("GET", port: metricsPort, "/metrics")
        return MetricsScrape(String(decoding: data, as: UTF8.self))
    }
}
