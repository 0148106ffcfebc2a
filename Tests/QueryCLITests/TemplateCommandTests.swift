import Foundation
import TestSupport
import Testing

/// `query schema apply Model.xcdatamodeld` and `query find --template NAME --var NAME=JSON`
/// (issue #30, items 4 and 5).
@Suite("query schema apply of a Core Data model, and find --template")
struct TemplateCommandTests {
    /// The Core Data model fixture of the record store's tests.
    static let model = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("RecordStoreTests/Schema/Fixtures/Company.xcdatamodeld").path

    static let employees = """
        {"recordName": "ada", "fields": {"name": "Ada", "identifier": "E0000000-0000-0000-0000-000000000001", "salary": 150000.0, "age": 36, "department": {"$ref": "sales"}}}
        {"recordName": "bob", "fields": {"name": "Bob", "identifier": "E0000000-0000-0000-0000-000000000002", "salary": 90000.0, "age": 24, "department": {"$ref": "research"}, "manager": {"$ref": "ada"}}}
        {"recordName": "cy", "fields": {"name": "Cy", "identifier": "E0000000-0000-0000-0000-000000000003", "salary": 100000.0, "age": 19}}
        {"recordName": "dee", "fields": {"name": "Dee", "identifier": "E0000000-0000-0000-0000-000000000004", "salary": 120000.5, "age": 52}}

        """

    /// A new store with the model applied (printing what it did) and the employees saved.
    static func company() async throws -> (database: String, applied: CommandRunner.Outcome) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("templates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = folder.appendingPathComponent("company.sqlite").path
        let applied = try await CommandRunner.run(["schema", "apply", "--db", database, model])
        let saved = try await CommandRunner.run(["save", "--db", database, "Employee"], input: employees)
        #expect(saved.status == 0, "\(saved.standardError)")
        let departments = """
            {"recordName": "sales", "fields": {"name": "Sales", "budget": 10.5}}
            {"recordName": "research", "fields": {"name": "Research", "budget": 20.0}}

            """
        let savedDepartments = try await CommandRunner.run(["save", "--db", database, "Department"], input: departments)
        #expect(savedDepartments.status == 0, "\(savedDepartments.standardError)")
        return (database, applied)
    }

    @Test("schema apply of a model prints what it applied, relationships included")
    func appliesModel() async throws {
        let (database, applied) = try await Self.company()
        #expect(applied.status == 0, "\(applied.standardError)")
        #expect(applied.standardOutput == """
            Applied 4 record types (24 fields) and 3 fetch request templates
            note: Transformable attributes are stored as bytes (only their ValueTransformer reads them): Employee.skills
            Relationships: Department.employees, Employee.department, Employee.manager, Employee.projects, Employee.reports, Project.members

            """)
        let shown = try await CommandRunner.run(["schema", "--db", database, "Department"])
        #expect(shown.standardOutput == """
            Department
              budget     double  default 0.0
              latitude   double  queryable sortable  default 0.0
              longitude  double  queryable sortable  default 0.0
              name       string  queryable sortable  required
              employees -> Employee  to-many, inverse of department, Cascade

            """)
        // The .xcdatamodel folder and its contents file are models too.
        let version = Self.model + "/Company 2.xcdatamodel"
        #expect(try await CommandRunner.run(["schema", "apply", "--db", database, version]).status == 0)
        #expect(try await CommandRunner.run(["schema", "apply", "--db", database, version + "/contents"]).standardOutput == applied.standardOutput)
    }

    @Test("find --template binds --var values and prints the matching records")
    func findsWithTemplate() async throws {
        let (database, _) = try await Self.company()
        let found = try await CommandRunner.run([
            "find", "--db", database, "--template", "HighEarners", "--var", "MINIMUM=100000", "--sort", "name", "--keys", "name,salary",
        ])
        #expect(found.status == 0, "\(found.standardError)")
        #expect(found.standardOutput == """
            recordName  name  salary
            ----------  ----  --------
            ada         Ada   150000.0
            dee         Dee   120000.5
            (2 records)

            """)
        let juniors = try await CommandRunner.run(["find", "--db", database, "--template", "NamedJuniors", "--var", "MAXIMUM_AGE=30", "--keys", "name"])
        #expect(juniors.status == 0, "\(juniors.standardError)")
        #expect(juniors.standardOutput.hasSuffix("(0 records)\n"))
    }

    @Test("find --template EmployeesInDepartment walks the to-one relationship; find and sort walk it too")
    func findsThroughRelationships() async throws {
        let (database, _) = try await Self.company()
        let sales = try await CommandRunner.run(["find", "--db", database, "--template", "EmployeesInDepartment", "--var", #"NAME="Sales""#, "--keys", "name"])
        #expect(sales.status == 0, "\(sales.standardError)")
        #expect(sales.standardOutput == """
            recordName  name
            ----------  ----
            ada         Ada
            (1 record)

            """)
        let managed = try await CommandRunner.run([
            "find", "--db", database, "Employee", "manager.department.name == 'Sales' OR ANY department.employees.age > 50", "--keys", "name",
        ])
        #expect(managed.status == 0, "\(managed.standardError)")
        #expect(managed.standardOutput.hasSuffix("bob         Bob\n(1 record)\n"))
        let staffed = try await CommandRunner.run(["find", "--db", database, "Department", "employees.@count > 0", "--sort", "name", "--keys", "name"])
        #expect(staffed.standardOutput == """
            recordName  name
            ----------  --------
            research    Research
            sales       Sales
            (2 records)

            """)
        let typo = try await CommandRunner.run(["find", "--db", database, "Employee", "department.nmae == 'Sales'"])
        #expect(typo.status == 1)
        #expect(typo.standardError.hasPrefix("error: Field 'nmae' does not exist in record type 'Department'"))
    }

    @Test("find --template: an unknown name, a missing variable and a predicate with it are errors")
    func templateErrors() async throws {
        let (database, _) = try await Self.company()
        let unknown = try await CommandRunner.run(["find", "--db", database, "--template", "Rich"])
        #expect(unknown.status == 1)
        #expect(unknown.standardError == "error: Did not find fetch request template 'Rich' (the store has 'EmployeesInDepartment', 'HighEarners', 'NamedJuniors')\n")
        let missing = try await CommandRunner.run(["find", "--db", database, "--template", "HighEarners", "--var", "MAX=1"])
        #expect(missing.status == 1)
        #expect(missing.standardError == "error: Fetch request template 'HighEarners' needs a value for $MINIMUM (its variables: $MINIMUM)\n")
        let both = try await CommandRunner.run(["find", "--db", database, "--template", "HighEarners", "Employee", "salary > 1"])
        #expect(both.status != 0)
        #expect(both.standardError.contains("--template names the record type and predicate: give no record type, predicate or --arg with it"))
        let stray = try await CommandRunner.run(["find", "--db", database, "Employee", "salary > 1", "--var", "A=1"])
        #expect(stray.status != 0)
        #expect(stray.standardError.contains("--var binds a template's variables: use it with --template"))
    }

    @Test("schema export --format json lists the templates; the .ckdb form has no syntax for them")
    func exportsTemplates() async throws {
        let (database, _) = try await Self.company()
        let json = try await CommandRunner.run(["schema", "export", "--db", database, "--format", "json"])
        #expect(json.status == 0, "\(json.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let templates = try #require(object["fetchRequestTemplates"] as? [[String: Any]])
        #expect(templates.map { $0["name"] as? String } == ["EmployeesInDepartment", "HighEarners", "NamedJuniors"])
        #expect(templates[1]["predicateFormat"] as? String == "salary > $MINIMUM")
        #expect(templates[1]["recordType"] as? String == "Employee")
        #expect(templates[1]["fetchLimit"] as? Int == 100)
        #expect(object["recordTypes"] != nil)
        // Relationships, which the .ckdb form has no syntax for, by record type.
        let relationships = try #require(object["relationships"] as? [String: [[String: Any]]])
        #expect(relationships.keys.sorted() == ["Department", "Employee", "Project"])
        let employees = try #require(relationships["Department"]?.first)
        #expect(employees["name"] as? String == "employees")
        #expect(employees["destination"] as? String == "Employee")
        #expect(employees["kind"] as? String == "toMany")
        #expect(employees["inverse"] as? String == "department")
        #expect(employees["deletionRule"] as? String == "cascade")
        #expect(relationships["Project"]?.first?["minCount"] as? Int == 1 && relationships["Project"]?.first?["maxCount"] as? Int == 20)
        #expect(relationships["Employee"]?.map { $0["name"] as? String } == ["department", "manager", "projects", "reports"])
        #expect(relationships["Employee"]?.first?["kind"] as? String == "toOne")
        #expect(relationships["Employee"]?[2]["kind"] as? String == "referenceList")
        #expect(relationships["Employee"]?[2]["ordered"] as? Bool == true)
        #expect(relationships["Project"]?.first?["kind"] as? String == "toMany")
        #expect(relationships["Project"]?.first?["inverse"] as? String == "projects")
        let ckdb = try await CommandRunner.run(["schema", "export", "--db", database])
        #expect(!ckdb.standardOutput.contains("HighEarners"))
    }
}
