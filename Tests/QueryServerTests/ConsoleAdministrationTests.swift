import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import TestSupport
import Testing

/// The development schema's administration in the console, in a real browser
/// (`Clients/console_administration.py`): a field added, an index type added, an index removed, a
/// deployment previewed and made, and one that production refuses, each shown in a modal dialog
/// with the server's plan before it is applied; the stores hold what the page did.
@Suite(.serialized, .enabled(if: ConsoleBrowser.isAvailable || PostgresTestServer.isRequired,
                "QUERY_TEST_PYTHON is not set or Chromium is missing (apt-get install chromium chromium-driver; .ci/run makes a virtual environment with selenium)"))
struct ConsoleAdministrationTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients/console_administration.py").path

    @Test(arguments: ConsoleBrowser.engines)
    func aFieldAnIndexARemovalAndADeploymentEachShownBeforeApplied(engine: TestEngine) async throws {
        let python = try ConsoleBrowser.requiredPython()
        let store = try engine.makeStore()
        var configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0)
        configuration.schema = try CloudKitSchemaDocument(parsing: SchemaAdministrationRoutesTests.schemaText)
        let (status, output, development) = try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            let (status, output) = try await ChildProcess.run(python, [Self.script, "http://127.0.0.1:\(server.port)"])
            return (status, output, try await server.developmentStore())
        }
        try #require(status == 0, "the browser script failed:\n\(output.suffix(4000))")
        let steps = try ConsoleBrowserTests.steps(output)
        let start: JSONValue = [["name", "STRING", ["queryable"]], ["population", "INT64", ["queryable", "sortable"]]]
        #expect(steps["start"] == ["step": "start", "fields": start, "removeButtons": 3])

        // Each change's dialog: modal, the page behind inert, the focus on Apply and kept inside by Tab and Shift+Tab.
        func asked(_ title: String, _ summary: String, _ changes: [JSONValue], refused: [JSONValue] = [], apply: String, enabled: Bool = true) -> JSONValue {
            ["title": .string(title), "summary": .string(summary), "changes": .array(changes), "refused": .array(refused), "refusedShown": .bool(!refused.isEmpty),
             "apply": .string(apply), "applyEnabled": .bool(enabled), "focused": enabled ? "admin-dialog-apply" : "admin-dialog-cancel",
             "modal": "true", "inert": [true, true]]
        }
        func applied(_ status: String) -> JSONValue {
            ["status": .string(status), "dialogShown": false, "focused": "schema-admin-title", "inert": [false, false]]
        }
        let adding = "Add to the development schema"
        let developmentChanges = "The development schema will change exactly so:"

        // A field.
        guard case .object(var fieldPlan) = asked(adding, developmentChanges, ["+ field City.mayor STRING QUERYABLE"], apply: "Add") else { return }
        fieldPlan["tabs"] = .array(Array(repeating: true, count: 12))
        let withMayor: JSONValue = [["name", "STRING", ["queryable"]], ["population", "INT64", ["queryable", "sortable"]], ["mayor", "STRING", ["queryable"]]]
        #expect(steps["field"] == ["step": "field", "planned": .object(fieldPlan), "applied": applied("Applied to development: + field City.mayor STRING QUERYABLE"),
                                   "fields": withMayor])

        // An index type on a field City has.
        let withSortedName: JSONValue = [["name", "STRING", ["queryable", "sortable"]], ["population", "INT64", ["queryable", "sortable"]], ["mayor", "STRING", ["queryable"]]]
        #expect(steps["index"] == ["step": "index", "planned": asked(adding, developmentChanges, ["+ index City.name SORTABLE"], apply: "Add"),
                                   "applied": applied("Applied to development: + index City.name SORTABLE"), "fields": withSortedName])

        // Removing an index: Escape cancels it (nothing changed, the focus back on its button), then applied.
        let label = "Remove the sortable index of City.population"
        #expect(steps["removeIndex"] == ["step": "removeIndex", "label": .string(label),
                                         "cancelled": ["focused": .string(label), "fields": withSortedName, "inert": [false, false]],
                                         "planned": asked("Remove an index in development", developmentChanges, ["- index City.population SORTABLE"], apply: "Remove index"),
                                         "applied": applied("Applied to development: - index City.population SORTABLE"),
                                         "fields": [["name", "STRING", ["queryable", "sortable"]], ["population", "INT64", ["queryable"]], ["mayor", "STRING", ["queryable"]]]])

        // Deploying: what production gains (development's removed index is not taken from production), then deployed.
        let deploying = "Deploy the development schema to production"
        #expect(steps["deploy"] == ["step": "deploy",
                                    "planned": asked(deploying, "The production schema will change exactly so:", ["+ index City.name SORTABLE", "+ field City.mayor STRING QUERYABLE"],
                                                     apply: "Deploy"),
                                    "applied": applied("Applied to production: + index City.name SORTABLE; + field City.mayor STRING QUERYABLE")])
        #expect(steps["deployAgain"] == ["step": "deployAgain", "focused": "schema-deploy",
                                         "planned": asked(deploying, "The production schema has this already: nothing would change.", [], apply: "Deploy", enabled: false)])
        // A field whose type development widened: refused, and Apply stays off.
        #expect(steps["deployRefused"] == ["step": "deployRefused", "saved": nil,
                                           "planned": asked(deploying, "The production schema refuses this: nothing can be applied.", [],
                                                            refused: ["City.population is INT64, and the deployed schema has DOUBLE: a field's type cannot change"],
                                                            apply: "Deploy", enabled: false)])
        // Production's schema view offers no change, and shows what the deployment gave it.
        #expect(steps["production"] == ["step": "production", "forms": 0, "removeButtons": 0, "fields": withSortedName,
                                        "hint": "The schema is changed in the development environment, then deployed to production: pick development to add fields and indexes."])
        #expect(steps["administrationProblems"]?["problems"] == [])

        // The stores hold what the page did.
        #expect(try await development.schema(for: "City")?.fields == [
            FieldSchema(name: "name", type: .string, isQueryable: true, isSortable: true),
            FieldSchema(name: "population", type: .double, isQueryable: true, isSortable: false),
            FieldSchema(name: "mayor", type: .string, isQueryable: true, isSortable: false),
        ])
        #expect(try await store.schema(for: "City")?.fields == [
            FieldSchema(name: "name", type: .string, isQueryable: true, isSortable: true),
            FieldSchema(name: "population", type: .int64, isQueryable: true, isSortable: true),
            FieldSchema(name: "mayor", type: .string, isQueryable: true, isSortable: false),
        ])
    }
}
