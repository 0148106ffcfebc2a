import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import TestSupport
import Testing

/// The console's "Reset development", in a real browser (`Clients/console_reset.py`): a modal
/// dialog shows exactly what goes (records per type, zones, the record type and field production
/// lacks), Escape cancels it, and applied, development's schema is production's and its records
/// are gone.
@Suite(.serialized, .enabled(if: ConsoleBrowser.isAvailable || PostgresTestServer.isRequired,
                "QUERY_TEST_PYTHON is not set or Chromium is missing (apt-get install chromium chromium-driver; .ci/run makes a virtual environment with selenium)"))
struct ConsoleResetTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients/console_reset.py").path

    @Test(arguments: ConsoleBrowser.engines)
    func theResetShowsWhatGoesThenEmptiesDevelopment(engine: TestEngine) async throws {
        let python = try ConsoleBrowser.requiredPython()
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.schema = try CloudKitSchemaDocument(parsing: SchemaAdministrationRoutesTests.schemaText)
        // The development store is read while the server runs: a PostgreSQL store's connections
        // close with the server.
        let (status, output, zones, after) = try await ServerHarness.withServer(store: try engine.makeStore(), configuration: configuration) { server in
            try await DevelopmentResetRoutesTests.fillDevelopment(server)
            let zones = try await server.developmentStore().zones().map(\.zoneName).sorted()
            let (status, output) = try await ChildProcess.run(python, [Self.script, "http://127.0.0.1:\(server.port)"])
            let development = try await server.developmentStore()
            let after = (note: try await development.schema(for: "Note"), cities: try await development.count(ofType: "City", matching: .truePredicate),
                         cityFields: try await development.schema(for: "City")?.fields.map(\.name))
            return (status, output, zones, after)
        }
        try #require(status == 0, "the browser script failed:\n\(output.suffix(4000))")
        let steps = try ConsoleBrowserTests.steps(output)
        #expect(steps["start"] == ["step": "start", "types": ["City", "Note"]])
        let changes: [JSONValue] = ["− 3 City records", "− 1 Note record"] + zones.map { .string("− zone " + $0) }
            + ["− record type Note (not in production)", "− field City.mayor (not in production)"]
        let planned: JSONValue = [
            "title": "Reset the development environment",
            "summary": "Everything of the development environment goes, exactly this, and its schema becomes production’s:",
            "changes": .array(changes), "refused": [], "refusedShown": false, "apply": "Reset development", "applyEnabled": true,
            "focused": "admin-dialog-apply", "modal": "true", "inert": [true, true], "danger": true, "tabs": .array(Array(repeating: true, count: 8)),
        ]
        #expect(steps["cancelled"] == ["step": "cancelled", "planned": planned, "focused": "schema-reset", "types": ["City", "Note"]])
        #expect(steps["reset"] == ["step": "reset", "types": ["City"],
                                   "applied": ["status": .string("Development reset: \(changes.count) deletions, its schema production’s"), "dialogShown": false,
                                               "focused": "schema-admin-title", "inert": [false, false]]])
        #expect(steps["results"] == ["step": "results", "rows": []])
        #expect(steps["resetProblems"]?["problems"] == [])
        // The store holds what the page did.
        #expect(after.note == nil)
        #expect(after.cities == 0)
        #expect(after.cityFields == ["name", "population"])
    }
}
