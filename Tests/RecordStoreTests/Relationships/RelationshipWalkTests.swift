import EngineTestSupport
import Foundation
import PredicateLanguage
import TestSupport
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// Key paths through relationships (issue #30, item 2), on every engine: to-one walks at any
/// depth, inverse to-manys and reference lists with `ANY`, `ALL`, `NONE`, collection operators
/// and `SUBQUERY`, sorts by a to-one's field, nil and dangling references, and the errors for a
/// path through a field that is not a relationship.
@Suite("Key paths through relationships")
struct RelationshipWalkTests {
    static let schema: [RecordTypeSchema] = [
        RecordTypeSchema(
            name: "Department",
            fields: [FieldSchema(name: "name", type: .string), FieldSchema(name: "budget", type: .int64)],
            relationships: [.toMany("employees", destination: "Employee", inverse: "department")]),
        RecordTypeSchema(
            name: "Employee",
            fields: [FieldSchema(name: "name", type: .string), FieldSchema(name: "salary", type: .int64)],
            relationships: [
                .toOne("department", destination: "Department"),
                .toOne("manager", destination: "Employee"),
                .toMany("projects", destination: "Project", inverse: "members"),
            ]),
        RecordTypeSchema(
            name: "Project", fields: [FieldSchema(name: "title", type: .string)],
            relationships: [.referenceList("members", destination: "Employee")]),
    ]

    static func record(_ type: String, _ name: String, _ fields: [String: Value]) -> Record {
        Record(recordType: type, recordID: RecordID(recordName: name), fields: fields)
    }

    static func reference(_ name: String) -> Value { .reference(Reference(recordName: name)) }

    /// Three departments (one empty), five employees (one without a department, one whose
    /// department does not exist), two projects (one listing a missing employee).
    static func company(_ engine: TestEngine) throws -> Store {
        let store = try engine.makeStore()
        try store.define(schema)
        try store.save([
            record("Department", "d1", ["name": "Sales", "budget": 100]),
            record("Department", "d2", ["name": "Research", "budget": 200]),
            record("Department", "d3", ["name": "Empty", "budget": 50]),
            record("Employee", "e1", ["name": "Ada", "salary": 150_000, "department": reference("d1")]),
            record("Employee", "e2", ["name": "Bob", "salary": 90_000, "department": reference("d1"), "manager": reference("e1")]),
            record("Employee", "e3", ["name": "Cy", "salary": 120_000, "department": reference("d2"), "manager": reference("e1")]),
            record("Employee", "e4", ["name": "Dee", "salary": 80_000]),
            record("Employee", "e5", ["name": "Eve", "salary": 70_000, "department": reference("ghost")]),
            record("Project", "p1", ["title": "Apollo", "members": .list([reference("e1"), reference("e2")])]),
            record("Project", "p2", ["title": "Zeus", "members": .list([reference("e3"), reference("ghost")])]),
        ])
        return store
    }

    static func names(_ store: Store, _ type: String, _ format: String, _ arguments: [Value] = [], sorts: [Sort] = [Sort("name")]) throws -> [String] {
        try store.records(ofType: type, matching: FormatPredicate(format: format, argumentArray: arguments), sorts: sorts)
            .map { $0["name"]?.stringValue ?? $0["title"]?.stringValue ?? "?" }
    }

    @Test("A to-one walk at any depth; nil and dangling references read as nil", arguments: TestEngine.allCases)
    func toOne(engine: TestEngine) throws {
        let store = try Self.company(engine)
        #expect(try Self.names(store, "Employee", "department.name == 'Sales'") == ["Ada", "Bob"])
        #expect(try Self.names(store, "Employee", "department.name == nil") == ["Dee", "Eve"])
        #expect(try Self.names(store, "Employee", "department.budget > 150") == ["Cy"])
        #expect(try Self.names(store, "Employee", "manager.department.name == 'Sales'") == ["Bob", "Cy"])
        #expect(try Self.names(store, "Employee", "manager.department.name != 'Sales'") == ["Ada", "Dee", "Eve"])
        #expect(try Self.names(store, "Employee", "department.name BEGINSWITH[c] 's' AND salary < 100000") == ["Bob"])
        #expect(try Self.names(store, "Employee", "department.name == 'Sales' OR manager.name == 'Ada'") == ["Ada", "Bob", "Cy"])
        #expect(try store.count(ofType: "Employee", matching: FormatPredicate(format: "department.employees.@count == 2")) == 2)
    }

    @Test("Sorts by a to-one's field, nil first", arguments: TestEngine.allCases)
    func sortsByToOne(engine: TestEngine) throws {
        let store = try Self.company(engine)
        #expect(try Self.names(store, "Employee", "TRUEPREDICATE", sorts: [Sort("department.name"), Sort("name")]) == ["Dee", "Eve", "Cy", "Ada", "Bob"])
        #expect(try Self.names(store, "Employee", "salary > 75000", sorts: [Sort("department.budget", ascending: false)]) == ["Cy", "Ada", "Bob", "Dee"])
    }

    @Test("Inverse to-manys: ANY, ALL, NONE, collection operators, SUBQUERY and CONTAINS", arguments: TestEngine.allCases)
    func inverseToMany(engine: TestEngine) throws {
        let store = try Self.company(engine)
        #expect(try Self.names(store, "Department", "ANY employees.salary > 100000") == ["Research", "Sales"])
        #expect(try Self.names(store, "Department", "ALL employees.salary > 100000") == ["Empty", "Research"])
        #expect(try Self.names(store, "Department", "NONE employees.salary > 100000") == ["Empty"])
        #expect(try Self.names(store, "Department", "employees.@count > 1") == ["Sales"])
        #expect(try Self.names(store, "Department", "employees.@count == 0") == ["Empty"])
        #expect(try Self.names(store, "Department", "employees.@sum.salary > 200000") == ["Sales"])
        #expect(try Self.names(store, "Department", "employees.@avg.salary == 120000") == ["Research", "Sales"])
        #expect(try Self.names(store, "Department", "employees.@max.salary < 130000") == ["Research"])
        #expect(try Self.names(store, "Department", "SUBQUERY(employees, $e, $e.salary > 100000 AND $e.manager == nil).@count > 0") == ["Sales"])
        #expect(try Self.names(store, "Department", "SUBQUERY(employees, $e, $e.manager.name == 'Ada').@count == 1") == ["Research", "Sales"])
        #expect(try Self.names(store, "Department", "employees CONTAINS %@", [Self.reference("e3")]) == ["Research"])
        #expect(try Self.names(store, "Department", "%@ IN employees", [Self.reference("e1")]) == ["Sales"])
        #expect(try Self.names(store, "Employee", "ANY projects.title == 'Apollo'") == ["Ada", "Bob"])
        #expect(try Self.names(store, "Employee", "projects.@count == 0") == ["Dee", "Eve"])
    }

    @Test("Reference lists: missing members are left out", arguments: TestEngine.allCases)
    func referenceLists(engine: TestEngine) throws {
        let store = try Self.company(engine)
        #expect(try Self.names(store, "Project", "ANY members.name == 'Cy'", sorts: [Sort("title")]) == ["Zeus"])
        #expect(try Self.names(store, "Project", "members.@count == 1", sorts: [Sort("title")]) == ["Zeus"])
        #expect(try Self.names(store, "Project", "ANY members.department.name == 'Sales'", sorts: [Sort("title")]) == ["Apollo"])
        // The list itself still compares as references.
        #expect(try Self.names(store, "Project", "members CONTAINS %@", [Self.reference("ghost")], sorts: [Sort("title")]) == ["Zeus"])
    }

    @Test("A reference field without a declared relationship is walked to whatever record it names", arguments: TestEngine.allCases)
    func undeclaredReference(engine: TestEngine) throws {
        let store = try engine.makeStore()
        try store.save([
            Self.record("Customer", "alice", ["name": "Alice", "city": "Paris"]),
            Self.record("Customer", "bruno", ["name": "Bruno", "city": "Lyon"]),
            Self.record("Order", "o1", ["name": "first", "customer": Self.reference("alice")]),
            Self.record("Order", "o2", ["name": "second", "customer": Self.reference("bruno")]),
            Self.record("Item", "i1", ["name": "pen", "order": Self.reference("o1")]),
            Self.record("Item", "i2", ["name": "ink", "order": Self.reference("o2")]),
        ])
        #expect(try Self.names(store, "Order", "customer.name == 'Alice'") == ["first"])
        #expect(try Self.names(store, "Item", "order.customer.city == 'Lyon'") == ["ink"])
    }

    @Test("Walks stay in the record's zone: a reference to another zone's record reads as nil", arguments: TestEngine.allCases)
    func zones(engine: TestEngine) throws {
        let store = try Self.company(engine)
        let archive = ZoneID(zoneName: "Archive")
        try store.createZone(archive)
        let inArchive = Value.reference(Reference(recordName: "d9", zoneName: "Archive"))
        try store.save([
            Record(recordType: "Department", recordID: RecordID(recordName: "d9", zoneID: archive), fields: ["name": "Sales"]),
            Record(recordType: "Employee", recordID: RecordID(recordName: "e9", zoneID: archive), fields: ["name": "Ivy", "department": inArchive]),
            Self.record("Employee", "e8", ["name": "Hal", "department": inArchive]),
        ])
        #expect(try Self.names(store, "Employee", "department.name == 'Sales'") == ["Ada", "Bob"])
        #expect(try Self.names(store, "Employee", "department.name == nil") == ["Dee", "Eve", "Hal"])
        let archived = try store.records(ofType: "Employee", matching: FormatPredicate(format: "department.name == 'Sales'"), zone: archive)
        #expect(archived.map(\.recordID.recordName) == ["e9"])
        let staffed = try store.records(ofType: "Department", matching: FormatPredicate(format: "employees.@count == 1"), zone: archive)
        #expect(staffed.map(\.recordID.recordName) == ["d9"])
    }

    @Test("A path through a field that is not a relationship, or to a field the destination lacks, is an error", arguments: TestEngine.allCases)
    func errors(engine: TestEngine) throws {
        let store = try Self.company(engine)
        #expect(throws: RecordStoreError.notARelationship(field: "salary", recordType: "Employee", keyPath: "salary.name")) {
            try Self.names(store, "Employee", "salary.name == 'x'")
        }
        #expect(throws: RecordStoreError.notARelationship(field: "name", recordType: "Department", keyPath: "department.name.city")) {
            try Self.names(store, "Employee", "department.name.city == 'x'")
        }
        #expect(throws: RecordStoreError.unknownField("nme", recordType: "Department", suggestions: ["name"])) {
            try Self.names(store, "Employee", "department.nme == 'x'")
        }
        // A string's own keys still read through key-value coding.
        #expect(try Self.names(store, "Employee", "department.name.length == 5") == ["Ada", "Bob"])
    }

    @Test("explain shows the walk: in SQL on the SQL engines, after the engine's part on the memory engine", arguments: TestEngine.allCases)
    func explains(engine: TestEngine) throws {
        let store = try Self.company(engine)
        let predicate = try FormatPredicate(format: "salary > 1 AND department.name == 'Sales'")
        let plan = try store.explain(ofType: "Employee", matching: predicate)
        #expect(try store.count(ofType: "Employee", matching: predicate) == 2)
        if engine == .memory {
            #expect(plan.residual?.hasSuffix("department.name == \"Sales\"") == true)
            #expect(plan.queryPlanDetails.last == "then read the related records (department: records)")
        } else {
            #expect(plan.residual == nil, "\(plan)")
            // An uncorrelated subquery on the destination (placeholders are `?` or `$n`).
            #expect(plan.sql.contains(#"t."department" IN (SELECT "#), "\(plan)")
            // SQLite seeks the reference index; PostgreSQL chooses by cost, and on these few rows
            // may read the employees in record-name order from the unique key instead.
            if engine != .postgres { #expect(plan.indexesUsed.contains("Employee$department$index"), "\(plan)") }
            #expect(plan.sql.contains(#" || t."$recordName" FROM "Department" AS t WHERE t."$zone" = "#), "\(plan)")
        }
        // A sort through a relationship is walked in Swift on every engine.
        let sorted = try store.explain(ofType: "Employee", matching: predicate, sorts: [Sort("department.name")])
        #expect(sorted.queryPlanDetails.last == "then sort or group in Swift by department.name")
    }
}
