import EngineTestSupport
import Foundation
import PredicateLanguage
import QueryServer
import RecordStore
import TestSupport
import Testing

/// The console's links between records in a real browser (`Clients/console_relationships.py`):
/// references open their record in the panel, with Back; a record lists the records that point
/// at it; the check as you type accepts what the store runs; the schema view shows the
/// relationships; a boolean shows and is edited as one.
@Suite(.serialized, .enabled(if: ConsoleBrowser.isAvailable || PostgresTestServer.isRequired,
                "QUERY_TEST_PYTHON is not set or Chromium is missing (apt-get install chromium chromium-driver; .ci/run makes a virtual environment with selenium)"))
struct ConsoleRelationshipsTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients/console_relationships.py").path

    /// Departments with their employees (Department.employees is the inverse of the to-one
    /// Employee.department), employees with a boolean `active`, and a project listing members.
    static func staff(_ engine: TestEngine = .sqlite) async throws -> Store {
        let store = try engine.makeStore()
        try await store.define([
            RecordTypeSchema(name: "Department", fields: [FieldSchema(name: "name", type: .string)],
                             relationships: [.toMany("employees", destination: "Employee", inverse: "department")]),
            RecordTypeSchema(name: "Employee", fields: [
                FieldSchema(name: "name", type: .string), FieldSchema(name: "salary", type: .int64), FieldSchema(name: "active", type: .bool),
            ], relationships: [.toOne("department", destination: "Department")]),
            RecordTypeSchema(name: "Project", fields: [FieldSchema(name: "title", type: .string)],
                             relationships: [.referenceList("members", destination: "Employee")]),
        ])
        let reference = { (name: String) in Value.reference(Reference(recordName: name)) }
        _ = try await store.save([
            Record(recordType: "Department", recordID: RecordID(recordName: "dept-marketing"), fields: ["name": "Marketing"]),
            Record(recordType: "Department", recordID: RecordID(recordName: "dept-sales"), fields: ["name": "Sales"]),
            Record(recordType: "Department", recordID: RecordID(recordName: "dept-research"), fields: ["name": "Research"]),
            Record(recordType: "Employee", recordID: RecordID(recordName: "ada"),
                   fields: ["name": "Ada", "salary": 150_000, "active": .bool(true), "department": reference("dept-marketing")]),
            Record(recordType: "Employee", recordID: RecordID(recordName: "bob"),
                   fields: ["name": "Bob", "salary": 90_000, "active": .bool(false), "department": reference("dept-marketing")]),
            Record(recordType: "Employee", recordID: RecordID(recordName: "cy"),
                   fields: ["name": "Cy", "salary": 120_000, "active": .bool(true), "department": reference("dept-sales")]),
            Record(recordType: "Project", recordID: RecordID(recordName: "launch"),
                   fields: ["title": "Launch", "members": .list([reference("ada"), reference("cy")])]),
        ])
        return store
    }

    /// A link as the script reports it: its text, its record's type and name.
    static func link(_ type: String, _ name: String, _ label: String? = nil) -> JSONValue {
        [.string("→ \(type) \(name)" + (label.map { " · \($0)" } ?? "")), .string(type), .string(name)]
    }

    /// A list of related records as the script reports it.
    static func related(_ relationship: String, _ type: String, _ field: String, list: Bool = false, _ links: [JSONValue]) -> JSONValue {
        let count = links.count == 1 ? "1 record" : "\(links.count) records"
        return ["relationship": .string(relationship),
                "heading": .string("\(relationship) \(type) records whose \(field) \(list ? "include" : "is") this record \(count)"),
                "links": .array(links)]
    }

    @Test(arguments: ConsoleBrowser.engines)
    func referencesAreLinksWithBackAndRecordsListWhatPointsAtThem(engine: TestEngine) async throws {
        let python = try ConsoleBrowser.requiredPython()
        let store = try await Self.staff(engine)
        // Full rules: key paths through relationships (CloudKit's own rules refuse them).
        let configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, predicateRules: .full)
        let (status, output) = try await ServerHarness.withServer(store: store, configuration: configuration) { server in
            try await ChildProcess.run(python, [Self.script, "http://127.0.0.1:\(server.port)"])
        }
        try #require(status == 0, "the browser script failed:\n\(output.suffix(4000))")
        let steps = try ConsoleBrowserTests.steps(output)

        // In the results, a reference is a link naming its record's type; a boolean reads true or false.
        let employees = try #require(steps["employees"])
        #expect(employees["headers"] == [["#", nil], ["recordName", nil], ["name", "STRING"], ["salary", "INT64"], ["active", "BOOLEAN"],
                                         ["department", "REFERENCE"]])
        let rows = employees["rows"]?.arrayValue ?? []
        #expect(rows.map { $0["recordName"] } == ["ada", "bob", "cy"])
        #expect(rows.first?["cells"]?["department"] == ["text": "→ Department dept-marketing", "links": [Self.link("Department", "dept-marketing")]])
        #expect(rows.map { $0["cells"]?["active"]?["text"] } == ["true", "false", "true"])

        // The panel: the reference with its type, the boolean, and the project that lists the employee.
        let launch = Self.related("Project.members", "Project", "members", list: true, [Self.link("Project", "launch", "Launch")])
        let ada = try #require(steps["ada"])
        #expect(ada["department"] == ["type": "REFERENCE", "text": "→ Department dept-marketing", "links": [Self.link("Department", "dept-marketing")]])
        #expect(ada["active"] == ["type": "BOOLEAN", "text": "true", "links": []])
        #expect(ada["title"] == "Employee ada")
        #expect(ada["back"] == .null)
        #expect(ada["related"] == [launch])

        // Following it: the department lists its employees (the inverse to-many), Back goes to the employee.
        let marketing = Self.related("employees", "Employee", "department", [Self.link("Employee", "ada", "Ada"), Self.link("Employee", "bob", "Bob")])
        #expect(steps["department"] == ["step": "department", "title": "Department dept-marketing", "back": "Back to Employee ada",
                                        "related": [marketing], "focused": "detail-edit"])
        let back = try #require(steps["back"])
        #expect(back["bob"] == ["title": "Employee bob", "back": "Back to Department dept-marketing",
                                "related": [Self.related("Project.members", "Project", "members", list: true, [])]])
        #expect(back["once"] == ["title": "Department dept-marketing", "back": "Back to Employee ada", "related": [marketing]])
        #expect(back["twice"] == ["title": "Employee ada", "back": nil, "related": [launch]])

        // Escape gives the focus back to the row first opened; a link in a row opens its record.
        let fromTable = try #require(steps["fromTable"])
        #expect(fromTable["focused"] == "ada")
        #expect(fromTable["fromTable"] == ["title": "Department dept-sales", "back": nil,
                                           "related": [Self.related("employees", "Employee", "department", [Self.link("Employee", "cy", "Cy")])]])
        #expect(fromTable["afterClose"] == "dept-sales")
        #expect(fromTable["byKeyboard"] == "Department dept-marketing")

        // The check accepts what the store runs (one check: Store.check), and refuses what it refuses.
        let check = try #require(steps["check"])
        #expect(check["check"] == ["state": "valid", "text": "✓ Valid under full rules: employees.@count > 1", "caret": nil, "marked": []])
        let counted = try await store.records(matching: RecordQuery(recordType: "Department", predicate: FormatPredicate(format: "employees.@count > 1")))
        #expect(check["rows"] == .array(counted.records.map { .string($0.recordID.recordName) }))
        #expect(check["rows"] == ["dept-marketing"])
        #expect(check["requestError"] == false)
        var refusal = ""
        let misspelt = try RecordQuery(recordType: "Department", predicate: FormatPredicate(format: "employees.salaryy > 1"))
        do {
            try await store.check(misspelt)
        } catch {
            refusal = error.description
        }
        #expect(refusal.hasPrefix("Field 'salaryy' does not exist in record type 'Employee'"), "\(refusal)")
        #expect(check["misspelt"]?["state"] == "invalid")
        #expect(check["misspelt"]?["text"]?.stringValue?.hasPrefix("✗ \(refusal)\n") == true, "\(check["misspelt"] ?? .null)")
        #expect(check["misspelt"]?["caret"] == .string("employees.salaryy > 1\n" + String(repeating: " ", count: 10) + "^^^^^^^"))
        #expect(check["misspelt"]?["marked"] == ["salaryy"])
        #expect(check["empty"] == ["title": "Department dept-research", "back": nil,
                                   "related": [Self.related("employees", "Employee", "department", [])]])

        // The schema view: each type's relationships, and the boolean named as one.
        let schema = try #require(steps["schema"]?["types"])
        #expect(schema["Department"]?["relationships"] == [["employees", "to-many, inverse of Employee.department", "→ Employee", "Nullify"]])
        #expect(schema["Employee"]?["relationships"] == [["department", "to-one", "→ Department", "Nullify"]])
        #expect(schema["Project"]?["relationships"] == [["members", "to-many, reference list", "→ Employee", "Nullify"]])
        let fields = (schema["Employee"]?["fields"]?.arrayValue ?? []).map { JSONValue.array(Array(($0.arrayValue ?? []).prefix(2))) }
        #expect(fields == [["name", "STRING"], ["salary", "INT64"], ["active", "BOOLEAN (INT64)"], ["department", "REFERENCE"]])

        // A boolean edited as true or false, and saved as CloudKit has it (INT64 1).
        let boolean = try #require(steps["boolean"])
        #expect(boolean["form"] == ["tag": "select", "options": ["—", "true", "false"], "value": "false", "hint": "true or false"])
        #expect(boolean["error"] == .null)
        #expect(boolean["shown"] == ["type": "BOOLEAN", "text": "true", "links": []])
        #expect(boolean["data"] == ["type": "INT64", "value": 1, "items": []])
        #expect(boolean["cell"] == "true")
        #expect(try await store.record(for: RecordID(recordName: "bob"))?.fields["active"] == .bool(true))
        #expect(steps["relationshipsProblems"]?["problems"] == [])
    }
}
