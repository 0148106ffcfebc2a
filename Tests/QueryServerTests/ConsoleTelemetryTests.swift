import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import QueryServer
import RecordStore
import TestSupport
import Testing

/// The console's Telemetry tab in a real browser (`Clients/console_telemetry.py`), after an hour
/// of known requests on a clock the test moves: the tab reached from the keyboard, each route's
/// row exactly, the chart drawn (a bar and a p99 point a minute, its text alternative), a route
/// picked for the chart and all routes back, and every text's contrast in light and dark mode.
@Suite(.serialized, .enabled(if: ConsoleBrowser.isAvailable || PostgresTestServer.isRequired,
                "QUERY_TEST_PYTHON is not set or Chromium is missing (apt-get install chromium chromium-driver; .ci/run makes a virtual environment with selenium)"))
struct ConsoleTelemetryTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients/console_telemetry.py").path
    /// The minute the page opens in: 2025-02-19T21:20:00Z, counted from 1970.
    static let minute = ConsoleTelemetryRoutesTests.minute

    /// `/health` requests in each of the hour's first 59 minutes: 1 to 5.
    static func healthRequests(_ index: Int) -> Int { 1 + (index * 7) % 5 }

    @Test func theTabShowsTheHoursRoutesAndDrawsItsChart() async throws {
        let python = try ConsoleBrowser.requiredPython()
        let store = try await RecordsQueryTests.servedStore()
        let first = Self.minute - 59
        let clock = ManualTelemetryClock(minute: first)
        let (status, output) = try await ConsoleTelemetryRoutesTests.withServer(store: store, clock: clock) { server in
            // The hour before the page opens, one minute after another; each request reads the
            // clock twice, one step apart, so its latency is the step.
            for index in 0..<59 {
                let minute = first + Int64(index)
                // /health: 2 ms, but 300 ms in the minutes ending in 9.
                clock.set(minute: minute, step: .milliseconds(index % 10 == 9 ? 300 : 2))
                for _ in 0..<Self.healthRequests(index) { #expect(try await server.send("GET", "/health").status == 200) }
                // A path no route answers, every sixth minute: 404 in 1 ms.
                clock.set(minute: minute, seconds: 10, step: .milliseconds(1))
                if index % 6 == 0 { #expect(try await server.send("GET", "/nowhere").status == 404) }
                // A malformed records/modify, every fifteenth minute: 400 in 4 ms.
                clock.set(minute: minute, seconds: 20, step: .milliseconds(4))
                if index % 15 == 7 { #expect(try await server.send("POST", ServerHarness.path("records/modify"), body: "{").status == 400) }
                // Two minutes of a store that failed records/modify (503 after 250 ms), filed as
                // the middleware files them: a real 5xx needs a store that fails.
                if [20, 21, 40].contains(index) {
                    for _ in 0..<2 {
                        server.server.metrics.telemetry.record(route: "records/modify", status: 503, latency: .milliseconds(250), at: .seconds(minute * 60 + 30))
                    }
                }
            }
            // The page's own requests, in the last minute, take no time.
            clock.set(minute: Self.minute)
            return try await ChildProcess.run(python, [Self.script, "http://127.0.0.1:\(server.port)"])
        }
        try #require(status == 0, "the browser script failed:\n\(output.suffix(4000))")
        let steps = try ConsoleBrowserTests.steps(output)

        // Reached from the keyboard: the left arrow from Results wraps round to Telemetry, the only tab in the Tab order.
        #expect(steps["opened"] == ["step": "opened", "tabs": ["selected": ["telemetry"], "focused": "telemetry", "shown": true],
                                    "tabIndexes": [-1, -1, -1, -1, -1, -1, 0],
                                    "panel": ["role": "tabpanel", "labelledBy": "telemetry-title"]])

        // Each route's row, exactly; the page's own routes (schema, zones, records) are there too.
        let table = try #require(steps["table"])
        #expect(table["head"] == ["Route", "Requests", "4xx", "5xx", "Error rate", "p50", "p99"])
        let health = (0..<59).map(Self.healthRequests).reduce(0, +)
        let rows = table["rows"]?.arrayValue ?? []
        func row(_ route: String) -> JSONValue? { rows.first { $0.arrayValue?.first == .string(route) } }
        #expect(row("/health") == [.string("/health"), .string("\(health)"), "0", "0", "0%", "2 ms", "300 ms"])
        #expect(row("none") == ["none", "10", "10", "0", "0%", "1 ms", "1 ms"])
        #expect(row("records/modify") == ["records/modify", "10", "4", "6", "60%", "250 ms", "250 ms"])
        #expect(rows.first == row("/health"), "the busiest route first")
        #expect(rows.contains { $0.arrayValue?.first == "schema" })
        #expect(table["totals"] == [["requests", "Requests"], ["errorRate", "Error rate (5xx)"], ["clientErrorRate", "Client errors (4xx)"],
                                    ["p50", "p50 latency"], ["p99", "p99 latency"]])
        #expect(table["error"] == false)
        // All routes: a bar and a p99 point in each minute (the last one the page's own requests).
        let chart = try #require(table["chart"])
        #expect(chart["title"] == "Requests per minute and p99 latency, all routes")
        #expect(chart["bars"] == 60)
        #expect(chart["barGroups"] == 60)
        #expect(chart["points"] == 60)
        #expect(chart["line"] == true)
        #expect(chart["drawnWidth"] == true)
        #expect(chart["role"] == "img")
        #expect(chart["labelledBy"] == "telemetry-chart-title")

        // /health alone: 59 minutes, the busiest the third (5 requests, 20:23 UTC).
        #expect(steps["picked"] == ["step": "picked", "pressed": "true", "focused": "/health", "allShown": true, "chart": [
            "title": "Requests per minute and p99 latency, /health", "bars": 59, "barGroups": 59, "points": 59, "line": true,
            "description": .string("\(health) requests in the hour, at most 5 a minute (20:23 UTC); 0 4xx, 0 5xx; p99 300 ms."),
            "role": "img", "labelledBy": "telemetry-chart-title", "drawnWidth": true,
        ]])
        #expect(steps["allRoutes"]?["chart"]?["bars"] == 60)
        #expect(steps["allRoutes"]?["focused"] == "telemetry-chart-title")
        #expect(steps["allRoutes"]?["allShown"] == false)
        // 1 leaves the tab, 7 comes back and asks the server again.
        #expect(steps["shortcut"] == ["step": "shortcut", "tabs": ["selected": ["telemetry"], "focused": nil, "shown": true], "loads": 1])
        #expect(steps["contrast"] == ["step": "contrast", "light": [], "dark": [], "measured": true])
        #expect(steps["telemetryProblems"]?["problems"] == [])
    }
}
