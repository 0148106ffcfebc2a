import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import TestSupport
import Testing

/// Moving about the console in a real browser (`Clients/console_navigation.py`): a jump straight
/// to a page of a query, Previous to a page no Next reached, a jump past the end; the address
/// keeping the page, the tab and the record open, Back and Forward restoring each view, and an
/// address opened anew restoring all three.
@Suite(.serialized, .enabled(if: ConsoleBrowser.isAvailable || PostgresTestServer.isRequired,
                "QUERY_TEST_PYTHON is not set or Chromium is missing (apt-get install chromium chromium-driver; .ci/run makes a virtual environment with selenium)"))
struct ConsoleNavigationTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients/console_navigation.py").path

    /// The record names of a type in the order a query without a sort answers them.
    static func recordNames(of type: String, in store: Store) async throws -> [String] {
        var page = try await store.records(matching: try RecordQuery(recordType: type, predicate: FormatPredicate(format: "TRUEPREDICATE")), resultsLimit: 200)
        var names = page.records.map(\.recordID.recordName)
        while let cursor = page.cursor {
            page = try await store.records(continuingMatchFrom: cursor, resultsLimit: 200)
            names += page.records.map(\.recordID.recordName)
        }
        return names
    }

    /// What the script reports of a view of the results: the address, the tab, the pager's text,
    /// the rows and the record open.
    static func view(page: Int, of names: [String], tab: String = "results", record: String? = nil) -> JSONValue {
        let rows = Array(names[(page - 1) * 10..<min(page * 10, names.count)])
        var hash = "#container=iCloud.com.example.cities&environment=production&database=public&type=City&pageSize=10"
        if page > 1 { hash += "&page=\(page)" }
        if tab != "results" { hash += "&tab=\(tab)" }
        if let record { hash += "&record=\(record)" }
        return ["hash": .string(hash), "tab": .string(tab),
                "pageInfo": .string("Page \(page) · rows \((page - 1) * 10 + 1)–\((page - 1) * 10 + rows.count) of \(names.count)"),
                "rows": .array(rows.map(JSONValue.string)), "record": record.map(JSONValue.string) ?? .null]
    }

    @Test func jumpToAPageAndBackAndForwardThroughTheViews() async throws {
        let python = try ConsoleBrowser.requiredPython()
        let store = try await ConsoleBrowserTests.france()
        let names = try await Self.recordNames(of: "City", in: store)
        try #require(names.count == 692)
        let (status, output) = try await ServerHarness.withServer(store: store) { server in
            try await ChildProcess.run(python, [Self.script, "http://127.0.0.1:\(server.port)"])
        }
        try #require(status == 0, "the browser script failed:\n\(output.suffix(4000))")
        let steps = try ConsoleBrowserTests.steps(output)

        // Beside the pager: the page's number, of 70.
        #expect(steps["first"] == ["step": "first", "view": Self.view(page: 1, of: names), "pageCount": "of 70", "number": "1", "label": "Page"])

        // Page 25 straight away: the 240 records before it in two requests without fields, then the page.
        #expect(steps["jumped"] == ["step": "jumped", "view": Self.view(page: 25, of: names), "queries": 3, "number": "25"])
        // Previous: page 24, whose marker the jump did not keep.
        #expect(steps["previous"] == ["step": "previous", "view": Self.view(page: 24, of: names)])
        // Past the end: the last page, and nothing after it.
        #expect(steps["pastTheEnd"] == ["step": "pastTheEnd", "view": Self.view(page: 70, of: names), "number": "70", "nextEnabled": false])

        // Each view in the address, and Back and Forward restoring each.
        let opened = names[690]
        let forward = try #require(steps["forward"])
        #expect(forward["plan"] == Self.view(page: 70, of: names, tab: "plan"))
        #expect(forward["results"] == Self.view(page: 70, of: names))
        #expect(forward["opened"] == Self.view(page: 70, of: names, record: opened))
        #expect(forward["closed"] == Self.view(page: 70, of: names))
        let history = try #require(steps["history"])
        #expect(history["back"] == [Self.view(page: 70, of: names, record: opened), Self.view(page: 70, of: names),
                                    Self.view(page: 70, of: names, tab: "plan"), Self.view(page: 70, of: names),
                                    Self.view(page: 24, of: names), Self.view(page: 25, of: names), Self.view(page: 1, of: names)])
        #expect(history["forward"] == Self.view(page: 25, of: names))

        // An address opened anew: page 3, the map, and the record it names open.
        let address = try #require(steps["address"])
        #expect(address["view"] == Self.view(page: 3, of: names, tab: "map", record: names[240]))
        #expect(address["mapShown"] == true)
    }
}
