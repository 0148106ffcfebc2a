import EngineTestSupport
import Foundation
import PredicateLanguage
import TestSupport
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// Fetch request templates (issue #30, item 5) and applying a Core Data model's record types and
/// templates to a store (item 4, without relationships), on every engine.
@Suite("Fetch request templates and Core Data models applied")
struct FetchRequestTemplateTests {
    static let employees = [
        employee("ada", name: "Ada", salary: 150_000, age: 36, hired: 1_000),
        employee("bob", name: "Bob", salary: 90_000, age: 24, hired: 2_000),
        employee("cy", name: "Cy", salary: 100_000, age: 19, hired: 3_000),
        employee("dee", name: "Dee", salary: 120_000.5, age: 52, hired: 4_000),
    ]

    /// The Core Data model of ``CoreDataModelTests``.
    static let bundle = CoreDataModelTests.bundle

    /// A store with the fixture model applied and four employees (in development mode, where a
    /// predicate may name a field without an index, as the model's `NamedJuniors` does).
    static func company(_ engine: TestEngine) throws -> Store {
        let store = try engine.makeStore()
        try store.apply(try CoreDataModelReader.read(at: bundle))
        try store.save(employees)
        return store
    }

    static func employee(_ id: String, name: String, salary: Double, age: Int64, hired: TimeInterval) -> Record {
        Record(recordType: "Employee", recordID: RecordID(recordName: id), fields: [
            "name": .string(name), "salary": .double(salary), "age": .int(age), "hireDate": .date(Date(timeIntervalSince1970: hired)),
            "email": .string("\(id)@example.com"), "identifier": .string("00000000-0000-0000-0000-\(String(repeating: "0", count: 12 - id.count))\(id)"),
        ])
    }

    static func names(_ store: Store, _ request: FetchRequest) throws -> [String] {
        var sorted = request
        sorted.sortDescriptors = [Sort("name")]
        return try store.fetch(sorted).records.map { $0["name"]?.stringValue ?? "?" }
    }

    @Test("Applying the model creates its record types with their field types and indexes, and its templates", arguments: TestEngine.allCases)
    func appliesModel(engine: TestEngine) throws {
        let store = try engine.makeStore(mode: .production)
        let model = try CoreDataModelReader.read(at: Self.bundle)
        try store.apply(model)
        // The abstract Person is a record type too: a fetch of it returns its sub-entities' records.
        #expect(try store.schema().map(\.name) == ["Department", "Employee", "Person", "Project"])
        for recordType in model.recordTypeSchemas() {
            #expect(try store.schema(for: recordType.name)?.fields == recordType.fields)
            #expect(try store.schema(for: recordType.name)?.relationships == recordType.relationships)
        }
        let employee = try #require(try store.schema(for: "Employee"))
        #expect(employee.field(named: "salary") == FieldSchema(
            name: "salary", type: .double, isQueryable: true, isSortable: true, validation: FieldValidation(defaultValue: .number(0))))
        #expect(employee.field(named: "email") == FieldSchema(
            name: "email", type: .string, isQueryable: false, isSortable: false, validation: FieldValidation(pattern: "[^@]+@[^@]+")))
        #expect(employee.field(named: "hireDate")?.type == .date)
        #expect(try store.fetchRequestTemplates() == [
            FetchRequestTemplate(name: "EmployeesInDepartment", recordType: "Employee", predicateFormat: "department.name == $NAME"),
            FetchRequestTemplate(
                name: "HighEarners", recordType: "Employee", predicateFormat: "salary > $MINIMUM", fetchLimit: 100, includesSubentities: true),
            FetchRequestTemplate(
                name: "NamedJuniors", recordType: "Employee", predicateFormat: "age < $MAXIMUM_AGE AND name != \"Unnamed\" AND email ENDSWITH '&co'"),
        ])
        #expect(model.relationshipPaths == [
            "Department.employees", "Employee.department", "Employee.manager", "Employee.projects", "Employee.reports", "Project.members",
        ])
        #expect(model.opaqueAttributePaths == ["Employee.skills"])
        #expect(employee.field(named: "skills")?.type == .bytes)
        // Applying again changes nothing.
        try store.apply(model)
        #expect(try store.fetchRequestTemplates().count == 3)
    }

    @Test("Substitution gives exactly the records expected: integers, doubles, strings and dates", arguments: TestEngine.allCases)
    func substitution(engine: TestEngine) throws {
        let store = try Self.company(engine)
        let earners = try store.fetchRequest(template: "HighEarners", substitutionVariables: ["MINIMUM": 100_000])
        #expect(earners.entityName == "Employee")
        #expect(earners.fetchLimit == 100)
        #expect(earners.predicate?.predicateFormat == "salary > 100000")
        #expect(try Self.names(store, earners) == ["Ada", "Dee"])
        #expect(try Self.names(store, store.fetchRequest(template: "HighEarners", substitutionVariables: ["MINIMUM": .double(120_000.25)])) == ["Ada", "Dee"])
        #expect(try Self.names(store, store.fetchRequest(template: "HighEarners", substitutionVariables: ["MINIMUM": .double(120_000.75)])) == ["Ada"])
        #expect(try Self.names(store, store.fetchRequest(template: "NamedJuniors", substitutionVariables: ["MAXIMUM_AGE": 30])) == [])

        try store.define(FetchRequestTemplate(name: "Named", recordType: "Employee", predicateFormat: "name BEGINSWITH $PREFIX OR name == $NAME"))
        #expect(try Self.names(store, store.fetchRequest(template: "Named", substitutionVariables: ["PREFIX": "D", "NAME": "Bob"])) == ["Bob", "Dee"])
        try store.define(FetchRequestTemplate(name: "HiredBefore", recordType: "Employee", predicateFormat: "hireDate < $DATE"))
        let before = try store.fetchRequest(template: "HiredBefore", substitutionVariables: ["DATE": .date(Date(timeIntervalSince1970: 2_500))])
        #expect(try Self.names(store, before) == ["Ada", "Bob"])
        try store.define(FetchRequestTemplate(name: "Everyone", recordType: "Employee"))
        #expect(try Self.names(store, store.fetchRequest(template: "Everyone")) == ["Ada", "Bob", "Cy", "Dee"])
        #expect(try store.count(for: store.fetchRequest(template: "Everyone")) == 4)
    }

    @Test("An unknown template and a missing variable are errors naming them", arguments: TestEngine.allCases)
    func errors(engine: TestEngine) throws {
        let store = try Self.company(engine)
        #expect(throws: RecordStoreError.unknownFetchRequestTemplate("HighEarner", known: ["EmployeesInDepartment", "HighEarners", "NamedJuniors"])) {
            try store.fetchRequest(template: "HighEarner", substitutionVariables: [:])
        }
        #expect(RecordStoreError.unknownFetchRequestTemplate("HighEarner", known: ["EmployeesInDepartment", "HighEarners", "NamedJuniors"]).description
            == "Did not find fetch request template 'HighEarner' (the store has 'EmployeesInDepartment', 'HighEarners', 'NamedJuniors')")
        #expect(RecordStoreError.unknownFetchRequestTemplate("X", known: []).description == "Did not find fetch request template 'X' (the store has none)")

        try store.define(FetchRequestTemplate(name: "Band", recordType: "Employee", predicateFormat: "salary BETWEEN {$LOW, $HIGH}"))
        let missing = RecordStoreError.missingSubstitutionVariable("HIGH", template: "Band", variables: ["HIGH", "LOW"])
        #expect(throws: missing) { try store.fetchRequest(template: "Band", substitutionVariables: ["LOW": 1, "OTHER": 2]) }
        #expect(missing.description == "Fetch request template 'Band' needs a value for $HIGH (its variables: $HIGH, $LOW)")
        #expect(try Self.names(store, store.fetchRequest(template: "Band", substitutionVariables: ["LOW": 95_000, "HIGH": 125_000])) == ["Cy", "Dee"])
    }

    @Test("A template is checked when it is defined: its record type exists and its predicate parses", arguments: TestEngine.allCases)
    func checkedOnDefinition(engine: TestEngine) throws {
        let store = try Self.company(engine)
        #expect(throws: RecordStoreError.invalidFetchRequestTemplate("Lost", reason: "Did not find record type 'Employe'; did you mean 'Employee'?")) {
            try store.define(FetchRequestTemplate(name: "Lost", recordType: "Employe", predicateFormat: "salary > $MINIMUM"))
        }
        do {
            try store.define(FetchRequestTemplate(name: "Broken", recordType: "Employee", predicateFormat: "salary >"))
            Issue.record("a predicate that does not parse was accepted")
        } catch {
            #expect(error.description.hasPrefix("Fetch request template 'Broken' cannot be defined: its predicate does not parse: "))
        }
        #expect(throws: RecordStoreError.invalidFetchRequestTemplate("", reason: "a template's name must not be empty or hold a NUL character")) {
            try store.define(FetchRequestTemplate(name: "", recordType: "Employee"))
        }
        #expect(try store.fetchRequestTemplates().map(\.name) == ["EmployeesInDepartment", "HighEarners", "NamedJuniors"])
    }

    @Test("A model whose template names no record type changes nothing")
    func modelCheckedFirst() throws {
        let store = try TestEngine.memory.makeStore()
        var model = try CoreDataModelReader.read(at: Self.bundle)
        model.fetchRequestTemplates.append(CoreDataFetchRequestTemplate(name: "Robots", entity: "Robot"))
        #expect(throws: RecordStoreError.invalidFetchRequestTemplate("Robots", reason: "Did not find record type 'Robot'")) { try store.apply(model) }
        #expect(try store.schema().isEmpty)
        #expect(try store.fetchRequestTemplates().isEmpty)
    }

    @Test("Templates survive reopening the store", arguments: [TestEngine.sqlite, .postgres].filter(TestEngine.allCases.contains))
    func survivesReopen(engine: TestEngine) async throws {
        TestEngine.registerEngines()
        let location = engine == .postgres ? try PostgresTestServer.freshStoreURL() : "sqlite:" + TestEngine.temporaryDatabasePath("templates")
        let store = try await Store.open(url: location)
        try await store.apply(try CoreDataModelReader.read(at: Self.bundle))
        _ = try await store.save(Self.employees)
        try await store.define(FetchRequestTemplate(name: "Everyone", recordType: "Employee"))
        let reopened = try await Store.open(url: location)
        #expect(try await reopened.fetchRequestTemplates().map(\.name) == ["EmployeesInDepartment", "Everyone", "HighEarners", "NamedJuniors"])
        let request = try await reopened.fetchRequest(template: "HighEarners", substitutionVariables: ["MINIMUM": 100_000])
        #expect(try await reopened.fetch(request).records.map(\.recordID.recordName).sorted() == ["ada", "dee"])
    }

    @Test("A catalog stored before templates existed reads as one without templates")
    func olderCatalog() throws {
        let catalog = try JSONDecoder().decode(SchemaCatalog.self, from: Data(#"{"recordTypes":{}}"#.utf8))
        #expect(catalog.fetchRequestTemplates.isEmpty)
        #expect(String(decoding: try JSONEncoder().encode(catalog), as: UTF8.self) == #"{"recordTypes":{}}"#)
    }
}
