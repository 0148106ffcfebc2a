import EngineTestSupport
import Foundation
import QueryServer
import RecordStore
import TestSupport
import Testing

/// The console checked by axe-core in a real browser (`Clients/console_accessibility.py`, with the
/// axe.min.js that the PyPI package axe-selenium-python ships): the results at 360, 768 and
/// 1440 px, each tab, and the record panel (light, and in dark mode the panel and the results) have no violation at all (of any impact: critical,
/// serious, moderate or minor). With `QUERY_CONSOLE_SCREENSHOTS=docs` the script also rewrites the
/// README's pictures of the three widths.
@Suite(.serialized, .enabled(if: ConsoleBrowser.isAvailable || PostgresTestServer.isRequired,
                "QUERY_TEST_PYTHON is not set or Chromium is missing (apt-get install chromium chromium-driver; .ci/run makes a virtual environment with selenium and axe-selenium-python)"))
struct ConsoleAccessibilityTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients/console_accessibility.py").path

    @Test func axeFindsNothingAtAnyWidthOnAnyTabOrInThePanel() async throws {
        let python = try ConsoleBrowser.requiredPython()
        let store = try await ConsoleBrowserTests.france()
        let (status, output) = try await ServerHarness.withServer(store: store) { server in
            try await ChildProcess.run(python, [Self.script, "http://127.0.0.1:\(server.port)"])
        }
        try #require(status == 0, "the browser script failed:\n\(output.suffix(4000))")
        let steps = try ConsoleBrowserTests.steps(output)

        #expect(steps["axeVersion"]?["version"] == "3.1.1")
        let views = ["results360", "results768", "results1440"]
            + ["results", "plan", "map", "schema", "roles", "subscriptions", "telemetry"].map { "tab-\($0)" } + ["panel", "darkPanel", "darkResults"]
        for view in views {
            #expect(steps[view]?["violations"] == [], "\(view)")
        }
    }
}
