import EngineTestSupport
import Foundation
import TestSupport
import Testing

/// A Core Data model's records through the `query` commands (issue #30, Tests: "CLI round trips:
/// schema apply, then save, find --template, export and import"): the Company model applied to a
/// new SQLite store, records saved that reference each other (to-one, to-many through the
/// inverse, a many-to-many reference list, and a zone of their own), walked with a template and
/// key paths, exported in each format that carries references (JSON lines and CSV), imported into
/// new stores (SQLite, and PostgreSQL when `QUERY_TEST_POSTGRES_URL` names a server) with the model
/// applied first, and without any schema, where the same walks answer the same records.
@Suite("query round trip of a Core Data model's records: schema apply, save, find --template, export, import")
struct RelationshipRoundTripCommandTests {
    /// The stores a copy is imported into: a new SQLite file, and a new PostgreSQL schema when a
    /// server is configured (as the engine-parameterized suites choose PostgreSQL).
    enum Target: String, CaseIterable, CustomStringConvertible {
        case sqlite, postgres

        var description: String { rawValue }

        static var available: [Target] { TestEngine.allCases.contains(.postgres) ? [.sqlite, .postgres] : [.sqlite] }

        /// The `--db` of a new, empty store.
        func newStore(_ folder: URL, _ name: String) throws -> String {
            switch self {
            case .sqlite: folder.appendingPathComponent("\(name).sqlite").path
            case .postgres: try PostgresTestServer.freshStoreURL()
            }
        }
    }

    static let departments = """
        {"recordName": "sales", "fields": {"name": "Sales", "budget": 10.5}}
        {"recordName": "research", "fields": {"name": "Research", "budget": 20.0}}
        {"recordName": "legacy", "zone": "Archive", "fields": {"name": "Legacy", "budget": 1.0}}

        """

    static let projects = """
        {"recordName": "apollo", "fields": {"title": "Apollo"}}
        {"recordName": "zephyr", "fields": {"title": "Zephyr"}}

        """

    /// To-ones (`department`, `manager`), the many-to-many reference list (`projects`, whose
    /// inverse is `Project.members`), an empty list, and a reference within the Archive zone.
    static let employees = """
        {"recordName": "ada", "fields": {"name": "Ada", "identifier": "E0000000-0000-0000-0000-000000000001", "age": 30, "salary": 150000.0, "department": {"$ref": "sales"}, "projects": [{"$ref": "apollo"}, {"$ref": "zephyr"}]}}
        {"recordName": "bob", "fields": {"name": "Bob", "identifier": "E0000000-0000-0000-0000-000000000002", "age": 30, "salary": 90000.0, "department": {"$ref": "research"}, "manager": {"$ref": "ada"}, "projects": [{"$ref": "apollo"}]}}
        {"recordName": "cy", "fields": {"name": "Cy", "identifier": "E0000000-0000-0000-0000-000000000003", "age": 30, "salary": 100000.0, "department": {"$ref": "sales"}, "manager": {"$ref": "ada"}}}
        {"recordName": "dee", "fields": {"name": "Dee", "identifier": "E0000000-0000-0000-0000-000000000004", "age": 30, "salary": 120000.5, "projects": []}}
        {"recordName": "eve", "zone": "Archive", "fields": {"name": "Eve", "identifier": "E0000000-0000-0000-0000-000000000005", "age": 30, "salary": 80000.0, "department": {"$ref": ["legacy", "Archive"]}}}

        """

    /// The record types in the order they are imported, each with the zones it has records in.
    /// Projects come after the employees: `Project.members` (the inverse of `Employee.projects`)
    /// requires at least one member, so a project saved before its members is refused (1580).
    static let recordTypes = ["Department", "Employee", "Project"]
    static let zones = ["_defaultZone", "Archive"]

    /// A walk: the `find` arguments after `--db`, and what it prints on every store.
    struct Walk {
        var arguments: [String]
        var output: String
        /// Whether it needs the model: a template, or a walk through an inverse to-many.
        var needsModel = false
    }

    static let walks: [Walk] = [
        Walk(arguments: ["--template", "EmployeesInDepartment", "--var", #"NAME="Sales""#, "--sort", "name", "--keys", "name"], output: """
            recordName  name
            ----------  ----
            ada         Ada
            cy          Cy
            (2 records)

            """, needsModel: true),
        Walk(arguments: ["Employee", "department.name == 'Research' OR manager.department.budget > 20", "--keys", "name"], output: """
            recordName  name
            ----------  ----
            bob         Bob
            (1 record)

            """),
        Walk(arguments: ["Employee", "ANY projects.title == 'Zephyr' OR projects.@count == 1", "--sort", "name", "--keys", "name"], output: """
            recordName  name
            ----------  ----
            ada         Ada
            bob         Bob
            (2 records)

            """),
        Walk(arguments: ["Employee", "department.name == 'Legacy'", "--zone", "Archive", "--keys", "name"], output: """
            recordName  name
            ----------  ----
            eve         Eve
            (1 record)

            """),
        Walk(arguments: ["Department", "ANY employees.salary > 120000", "--keys", "name"], output: """
            recordName  name
            ----------  -----
            sales       Sales
            (1 record)

            """, needsModel: true),
        Walk(arguments: ["Department", "employees.@count == 1", "--keys", "name"], output: """
            recordName  name
            ----------  --------
            research    Research
            (1 record)

            """, needsModel: true),
        Walk(arguments: ["Department", "employees.@count == 1", "--zone", "Archive", "--keys", "name"], output: """
            recordName  name
            ----------  ------
            legacy      Legacy
            (1 record)

            """, needsModel: true),
        Walk(arguments: ["Project", "ANY members.manager.name == 'Ada'", "--keys", "title"], output: """
            recordName  title
            ----------  ------
            apollo      Apollo
            (1 record)

            """, needsModel: true),
    ]

    /// Runs a command and expects it to succeed.
    @discardableResult
    static func succeed(_ arguments: [String], input: String? = nil, _ comment: String = "") async throws -> String {
        let outcome = try await CommandRunner.run(arguments, input: input)
        #expect(outcome.status == 0, "\(comment) query \(arguments.joined(separator: " ")): \(outcome.standardError)")
        return outcome.standardOutput
    }

    /// The source store: the model applied, the Archive zone made, the records saved.
    static func sourceStore(_ folder: URL) async throws -> String {
        let database = folder.appendingPathComponent("source.sqlite").path
        try await succeed(["schema", "apply", "--db", database, TemplateCommandTests.model])
        try await succeed(["zones", "create", "--db", database, "Archive"])
        try await succeed(["save", "--db", database, "Department"], input: departments)
        try await succeed(["save", "--db", database, "Employee"], input: employees)
        try await succeed(["save", "--db", database, "Project"], input: projects)
        return database
    }

    /// Each walk on a store prints what it prints on the source.
    static func expectWalks(on database: String, withModel: Bool, _ comment: String) async throws {
        for walk in walks where withModel || !walk.needsModel {
            let found = try await CommandRunner.run(["find", "--db", database] + walk.arguments)
            #expect(found.status == 0, "\(comment): find \(walk.arguments): \(found.standardError)")
            #expect(found.standardOutput == walk.output, "\(comment): find \(walk.arguments)")
        }
    }

    /// Every record of every type and zone as `query export` writes it as JSON lines: the
    /// references spelled with their record names and zones.
    static func exportedLines(_ database: String) async throws -> [String] {
        var lines: [String] = []
        for recordType in recordTypes {
            for zone in zones {
                await lines += try succeed(["export", "--db", database, recordType, "--zone", zone]).split(separator: "\n").map(String.init)
            }
        }
        return lines
    }

    @Test("the source store answers the walks, and its export spells every reference with its name and zone")
    func sourceAnswersWalks() async throws {
        let folder = TestFolders.make("relationship-round-trip")
        let source = try await Self.sourceStore(folder)
        try await Self.expectWalks(on: source, withModel: true, "source")
        let lines = try await Self.exportedLines(source)
        #expect(lines.count == 10)
        let bob = try #require(lines.first { $0.contains(#""recordName":"bob""#) })
        #expect(bob.contains(#""manager":{"$ref":"ada"}"#) && bob.contains(#""projects":[{"$ref":"apollo"}]"#), "\(bob)")
        let eve = try #require(lines.first { $0.contains(#""recordName":"eve""#) })
        #expect(eve.contains(#""department":{"$ref":["legacy","Archive"]}"#) && eve.contains(#""zone":"Archive""#), "\(eve)")
        let dee = try #require(lines.first { $0.contains(#""recordName":"dee""#) })
        #expect(dee.contains(#""projects":[]"#), "\(dee)")
    }

    @Test("export, then import into a store with the model applied: the same walks, the same records and references",
          arguments: ["jsonl", "csv"], Target.available)
    func roundTripWithModel(format: String, target: Target) async throws {
        let folder = TestFolders.make("relationship-round-trip")
        let source = try await Self.sourceStore(folder)
        let copy = try target.newStore(folder, "copy-\(format)")
        try await Self.succeed(["schema", "apply", "--db", copy, TemplateCommandTests.model])
        try await Self.copyRecords(from: source, to: copy, format: format, folder: folder)
        try await Self.expectWalks(on: copy, withModel: true, "\(format) into \(target)")
        #expect(try await Self.exportedLines(copy) == Self.exportedLines(source))
    }

    @Test("export, then import into a store without a schema: the references and lists survive, and walks through them answer the same",
          arguments: ["jsonl", "csv"], Target.available)
    func roundTripWithoutSchema(format: String, target: Target) async throws {
        let folder = TestFolders.make("relationship-round-trip")
        let source = try await Self.sourceStore(folder)
        let copy = try target.newStore(folder, "bare-\(format)")
        try await Self.copyRecords(from: source, to: copy, format: format, folder: folder)
        try await Self.expectWalks(on: copy, withModel: false, "\(format) into \(target) without a schema")
        // Every record keeps its name, zone and references exactly. (Not its whole line: without a
        // schema, JSON's `20.0` is read as an integer, and on SQLite a field widened to double
        // later keeps the earlier rows' integers.)
        #expect(try await Self.exportedLines(copy).map(Self.identityAndReferences) == Self.exportedLines(source).map(Self.identityAndReferences))
        // Without the model, an inverse to-many is not known: the walk is an error naming it, never an empty result.
        let inverse = try await CommandRunner.run(["find", "--db", copy, "Department", "employees.@count > 0"])
        #expect(inverse.status == 1)
        #expect(inverse.standardError.hasPrefix("error: Field 'employees' does not exist in record type 'Department'"), "\(inverse.standardError)")
        // Applying the model afterwards declares the relationships over the imported records.
        try await Self.succeed(["schema", "apply", "--db", copy, TemplateCommandTests.model])
        try await Self.expectWalks(on: copy, withModel: true, "\(format) into \(target), the model applied after the import")
    }

    /// An exported line's record name, zone and reference fields (`department`, `manager`,
    /// `projects`), as JSON text with sorted keys.
    static func identityAndReferences(_ line: String) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let fields = try #require(object["fields"] as? [String: Any])
        var kept: [String: Any] = ["recordName": object["recordName"] ?? "", "zone": object["zone"] ?? ""]
        for name in ["department", "manager", "projects"] { kept[name] = fields[name] }
        return String(decoding: try JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Exports each type and zone of `source` in `format` and imports the files into `copy`
    /// (a CSV file names no zone: `import --zone` gives it).
    static func copyRecords(from source: String, to copy: String, format: String, folder: URL) async throws {
        for recordType in recordTypes {
            for zone in zones {
                let file = folder.appendingPathComponent("\(recordType)-\(zone).\(format)")
                try await Data(try succeed(["export", "--db", source, recordType, "--zone", zone, "--output", format]).utf8).write(to: file)
                try await succeed(["import", "--db", copy, "--type", recordType, "--zone", zone, file.path], "import of \(file.lastPathComponent):")
            }
        }
    }
}
