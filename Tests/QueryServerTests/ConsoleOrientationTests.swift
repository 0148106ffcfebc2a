import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import TestSupport
import Testing

/// Finding one's way in the console, in a real browser (`Clients/console_orientation.py`): each
/// type's records counted and each query's total, the order a query has without a sort, columns that stay in place when sorted, the container shown
/// read-only, a failed run that keeps its rows' numbers (marked stale), the record panel as a
/// modal dialog, and text contrast at WCAG AA in light and dark mode.
@Suite(.serialized, .enabled(if: ConsoleBrowser.isAvailable || PostgresTestServer.isRequired,
                "QUERY_TEST_PYTHON is not set or Chromium is missing (apt-get install chromium chromium-driver; .ci/run makes a virtual environment with selenium)"))
struct ConsoleOrientationTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients/console_orientation.py").path

    @Test(arguments: ConsoleBrowser.engines)
    func orderColumnsContainerFailedRunsTheDialogAndContrast(engine: TestEngine) async throws {
        let python = try ConsoleBrowser.requiredPython()
        let store = try await RecordsQueryTests.servedStore(engine)
        let (status, output) = try await ServerHarness.withServer(store: store) { server in
            try await ChildProcess.run(python, [Self.script, "http://127.0.0.1:\(server.port)"])
        }
        try #require(status == 0, "the browser script failed:\n\(output.suffix(4000))")
        let steps = try ConsoleBrowserTests.steps(output)

        // Each type's records counted in the sidebar; a query's total (records/count) beside its page.
        let big = try await store.count(ofType: "City", matching: FormatPredicate(format: "population > 1000000"))
        #expect(big == 6)
        #expect(steps["counts"] == ["step": "counts", "sidebar": [["City", "12 records"]], "summary": "City · 12 records match",
                                    "pageInfo": "Page 1 · rows 1–10 of 12",
                                    "filtered": ["summary": "City · 6 records match", "pageInfo": "Page 1 · rows 1–6 of 6"]])

        // The order of a query without a sort is stated; a sort by a column leaves the columns in place.
        let columns = try #require(steps["columns"])
        #expect(columns["order"] == ["note": "Order: by record name, as text (no sort chosen)", "shown": true])
        let headers: JSONValue = ["#", "recordName", "name", "countrycode", "description", "location", "population", "tags"]
        #expect(columns["before"] == headers)
        #expect(columns["once"] == ["headers": headers, "sorts": [["population", "↑ asc"]], "note": false])
        #expect(columns["twice"] == ["headers": headers, "sorts": [["population", "↓ desc"]]])
        #expect(columns["byName"] == ["headers": headers, "sorts": [["name", "↑ asc"], ["population", "↓ desc"]]])

        // The container is the server's.
        #expect(steps["container"] == ["step": "container", "value": "iCloud.com.example.cities", "readOnly": true, "label": "Container"])

        // A failed run keeps the page's rows and their numbers, marked stale, and stops the pager.
        let failed = try #require(steps["failedPage"])
        #expect(failed["before"] == ["11", "12"])
        #expect(failed["after"] == ["11", "12"])
        #expect(failed["pageInfo"] == "Page 2 · rows 11–12 of 12")
        #expect(failed["stale"] == "The last Run failed (BAD_REQUEST): these are the results of the query that ran before.")
        #expect(failed["nextEnabled"] == false)
        #expect(failed["previousEnabled"] == false)

        // The record panel is a modal dialog: the page behind is inert, the focus stays inside.
        let dialog = try #require(steps["dialog"])
        #expect(dialog["opened"]?["role"] == "dialog")
        #expect(dialog["opened"]?["modal"] == "true")
        #expect(dialog["opened"]?["labelledBy"] == "detail-title")
        #expect(dialog["opened"]?["inert"] == [true, true])
        #expect(dialog["opened"]?["forward"] == .array(Array(repeating: true, count: 14)))
        #expect(dialog["opened"]?["backward"] == .array(Array(repeating: true, count: 14)))
        #expect(dialog["closedInert"] == [false, false])
        #expect(dialog["focused"] == dialog["recordName"])

        // Every text reaches WCAG AA contrast (4.5:1, 3:1 when large), light and dark, panel open or not.
        let contrast = try #require(steps["contrast"])
        for view in ["light", "dark", "lightPanel", "darkPanel"] {
            #expect(contrast[view]?["failing"] == [], "\(view)")
            #expect((contrast[view]?["measured"]?.integerValue ?? 0) > 40, "\(view)")
        }
        // An empty development environment says what production holds, and shows nothing of production's.
        #expect(steps["development"] == ["step": "development",
                                         "sidebar": "No record types in development yet. Production has 1 record type: City (12 records). Pick production in the header to see them.",
                                         "results": "Production has 1 record type: City (12 records). Pick production in the header to see them.",
                                         "rows": 0, "pageInfo": ""])

        // The only problems the browser reports are the failed run's: its query, count and plan, refused (400).
        let problems = (steps["orientationProblems"]?["problems"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(problems.count == 3 && problems.allSatisfy { $0.hasSuffix("the server responded with a status of 400 (Bad Request)") }, "\(problems)")
    }
}
