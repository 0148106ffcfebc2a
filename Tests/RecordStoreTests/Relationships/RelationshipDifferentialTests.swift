import EngineTestSupport
import Foundation
import PredicateLanguage
import TestSupport
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// Differential tests of key paths through relationships: random graphs of three record types (a
/// to-one, an inverse to-many, a self to-one and a reference list, with nil and dangling
/// references, and integers beyond 2^53), and predicates of every form SQL plans (collection
/// operators followed by to-one walks, integers against doubles), sorts through to-ones paged by
/// cursor, answered by each engine exactly as by the memory engine, the reference.
@Suite("Relationships: every engine agrees with the memory engine on random graphs")
struct RelationshipDifferentialTests {
    /// A graph of about 300 records, the same for a seed.
    static func graph(seed: UInt64) -> [Record] {
        var random = SplitMix64(seed: seed)
        func pick(_ range: ClosedRange<Int>) -> Int { Int(random.next() % UInt64(range.count)) + range.lowerBound }
        func reference(_ prefix: String, _ count: Int) -> Value? {
            switch pick(0...9) {
            case 0: return nil
            case 1: return .reference(Reference(recordName: "\(prefix)-missing-\(pick(0...3))"))
            default: return .reference(Reference(recordName: "\(prefix)\(pick(0...(count - 1)))"))
            }
        }
        let names = ["Ada", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal"]
        var records: [Record] = []
        for index in 0..<20 {
            var department = Record(recordType: "Department", recordID: RecordID(recordName: "d\(index)"))
            department["name"] = .string(["Sales", "Research", "Ops", "Legal"][pick(0...3)])
            if pick(0...4) > 0 { department["budget"] = .int(Int64(pick(0...10)) * 100) }
            records.append(department)
        }
        for index in 0..<200 {
            var employee = Record(recordType: "Employee", recordID: RecordID(recordName: "e\(index)"))
            employee["name"] = .string(names[pick(0...(names.count - 1))])
            if pick(0...9) > 0 { employee["salary"] = .int(Int64(pick(50...150)) * 1_000) }
            // Now and then a salary beyond 2^53, where a double cannot tell it from its neighbours:
            // compared with doubles, integers compare exactly, as NSNumber compares them.
            if pick(0...29) == 0 { employee["salary"] = .int(9_007_199_254_740_992 + Int64(pick(0...3))) }
            // Now and then a salary too large to add exactly in SQL: those sums are walked in Swift.
            if pick(0...79) == 0 { employee["salary"] = .int(Int64.max / 2 + Int64(pick(0...9))) }
            employee["department"] = reference("d", 20)
            employee["manager"] = reference("e", 200)
            records.append(employee)
        }
        for index in 0..<60 {
            var project = Record(recordType: "Project", recordID: RecordID(recordName: "p\(index)"))
            project["title"] = .string(["Apollo", "Zeus", "Hera"][pick(0...2)])
            project["members"] = .list((0..<pick(0...4)).compactMap { _ in reference("e", 200) })
            records.append(project)
        }
        return records
    }

    /// The predicates compared, by record type.
    static let predicates: [(recordType: String, format: String)] = [
        ("Employee", "department.name == 'Sales'"),
        ("Employee", "department.name != 'Sales'"),
        ("Employee", "department.name == nil"),
        ("Employee", "department.budget >= 500"),
        ("Employee", "department.budget < 300 OR salary > 120000"),
        ("Employee", "manager.department.name BEGINSWITH 'R'"),
        ("Employee", "manager.manager.salary > 100000"),
        ("Employee", "manager.name == name"),
        ("Employee", "NOT (department.name IN {'Ops', 'Legal'})"),
        ("Employee", "ANY projects.title == 'Zeus'"),
        ("Employee", "projects.@count >= 2"),
        ("Department", "ANY employees.salary > 140000"),
        ("Department", "ALL employees.salary > 60000"),
        ("Department", "NONE employees.name == 'Ada'"),
        ("Department", "employees.@count > 10"),
        ("Department", "employees.@count == 0"),
        ("Department", "employees.@count != 9"),
        ("Department", "employees.@sum.salary > 1000000"),
        ("Department", "employees.@avg.salary < 100000"),
        ("Department", "employees.@max.salary == 150000"),
        ("Department", "employees.@min.salary < 60000"),
        ("Department", "employees.@min.salary != nil AND budget > 200"),
        ("Department", "employees.@avg.salary == nil"),
        ("Department", "employees.@avg.salary >= 100000.5"),
        ("Department", "NOT (employees.@sum.salary >= 500000)"),
        ("Department", "employees.@sum.salary == 0"),
        ("Department", "employees.@max.salary != 150000 OR budget == nil"),
        ("Department", "SUBQUERY(employees, $e, $e.salary > 100000 AND $e.manager.name == 'Ada').@count > 0"),
        ("Department", "SUBQUERY(employees, $e, $e.salary > 100000 AND $e.name BEGINSWITH 'A').@count > 0"),
        ("Department", "SUBQUERY(employees, $e, $e.salary < 80000 OR $e.department.budget > 500).@count == 0"),
        ("Department", "SUBQUERY(employees, $e, $e.name IN {'Ada', 'Bob'} AND $e.salary != nil).@count >= 2"),
        ("Department", "NOT (SUBQUERY(employees, $e, $e.manager == nil).@count < 3)"),
        ("Department", "ANY employees.manager.department.name == 'Legal'"),
        ("Project", "ANY members.department.name == 'Ops'"),
        ("Project", "members.@count == 2"),
        ("Project", "ALL members.salary >= 80000"),
    ]

    /// Predicates drawn at random for a seed, over every form SQL plans: to-one comparisons,
    /// `ANY`/`ALL`/`NONE`, `@count`, `@sum`/`@avg`/`@min`/`@max` and `SUBQUERY` counts over an
    /// inverse to-many, reference lists and their inverse, and membership with a reference, each
    /// with a random operator, constant and sometimes a negation.
    static func generatedPredicates(seed: UInt64, count: Int = 24) -> [(recordType: String, format: String)] {
        var random = SplitMix64(seed: seed &+ 1_000)
        func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
        func salary() -> Int { Int(random.next() % 101 + 50) * 1_000 }
        let operators = ["==", "!=", "<", "<=", ">", ">="]
        let names = ["'Ada'", "'Bob'", "'Cy'", "'Eve'"]
        var predicates: [(String, String)] = []
        for _ in 0..<count {
            let form = Int(random.next() % 13)
            var entry: (String, String)
            switch form {
            case 0:
                entry = ("Employee", "\(pick(["department", "manager.department"])).budget \(pick(operators)) \(Int(random.next() % 11) * 100)")
            case 1:
                entry = ("Department", "\(pick(["ANY", "ALL", "NONE"])) employees.salary \(pick(operators)) \(salary())")
            case 2:
                entry = ("Department", "employees.@count \(pick(operators)) \(random.next() % 14)")
            case 3:
                let function = pick(["@sum", "@avg", "@min", "@max"])
                let constant = function == "@sum" ? salary() * Int(random.next() % 12) : salary()
                let value = pick(["\(constant)", "\(constant).5", "nil"])
                entry = ("Department", "employees.\(function).salary \(value == "nil" ? pick(["==", "!="]) : pick(operators)) \(value)")
            case 4:
                let test = pick(["$e.salary > \(salary())", "$e.name == \(pick(names))", "$e.manager.name == \(pick(names))", "$e.salary == nil"])
                let other = pick(["$e.name BEGINSWITH 'E'", "$e.salary < \(salary())", "$e.department.budget >= 500"])
                entry = ("Department", "SUBQUERY(employees, $e, \(test) \(pick(["AND", "OR"])) \(other)).@count \(pick(operators)) \(random.next() % 4)")
            case 5:
                entry = ("Project", "\(pick(["ANY", "ALL", "NONE"])) members.\(pick(["name == \(pick(names))", "salary > \(salary())", "department.name == 'Ops'"]))")
            case 6:
                entry = ("Project", "members.@count \(pick(operators)) \(random.next() % 5)")
            case 7:
                entry = ("Employee", pick(["projects.@count \(pick(operators)) \(random.next() % 4)", "\(pick(["ANY", "ALL", "NONE"])) projects.title == '\(pick(["Apollo", "Zeus", "Hera"]))'"]))
            case 8:
                let employee = "e\(random.next() % 200)"
                entry = pick([
                    ("Department", "employees CONTAINS %@|\(employee)"), ("Department", "%@ IN employees|\(employee)"),
                    ("Employee", "projects CONTAINS %@|p\(random.next() % 60)"),
                ])
            case 10:
                // A collection operator followed by a walk through a to-one, read from each member.
                let function = pick(["@sum", "@avg", "@min", "@max"])
                entry = ("Department", "employees.\(function).\(pick(["manager.salary", "department.budget"])) \(pick(operators)) \(salary())")
            case 11:
                let big = pick(["9007199254740992.0", "9007199254740993", "9007199254740994.0", "9.007199254740993e15"])
                entry = pick([
                    ("Employee", "salary \(pick(operators)) \(big)"), ("Department", "ANY employees.salary \(pick(operators)) \(big)"),
                    ("Employee", "salary BETWEEN {9007199254740992.0, \(big)}"), ("Employee", "salary IN {\(big), \(salary())}"),
                ])
            default:
                entry = ("Employee", "department.name \(pick(["==", "!=", "BEGINSWITH", "<"])) '\(pick(["Sales", "Ops", "R", "M"]))'")
            }
            if random.next() % 4 == 0 {
                let parts = entry.1.split(separator: "|", maxSplits: 1)
                entry.1 = "NOT (\(parts[0]))" + (parts.count > 1 ? "|\(parts[1])" : "")
            }
            predicates.append(entry)
        }
        return predicates
    }

    /// A predicate of the list: after a `|`, the name of the record whose reference `%@` stands for.
    static func predicate(_ format: String) throws -> FormatPredicate {
        let parts = format.split(separator: "|", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return try FormatPredicate(format: format) }
        return try FormatPredicate(format: parts[0], argumentArray: [.reference(Reference(recordName: parts[1]))])
    }

    /// The sorts compared (each over every employee): by a to-one's field, at two levels, descending.
    static let sorts: [[Sort]] = [
        [Sort("department.name"), Sort("salary", ascending: false)],
        [Sort("department.budget", ascending: false), Sort("name")],
        [Sort("manager.department.name"), Sort("manager.salary", ascending: false)],
    ]

    static let schema: [RecordTypeSchema] = RelationshipWalkTests.schema

    @Test("Random graphs: every predicate, count and sort through relationships as the memory engine answers", arguments: [1, 2, 3] as [UInt64])
    func agreesOnRandomGraphs(seed: UInt64) throws {
        let records = Self.graph(seed: seed)
        var answers: [TestEngine: [[String]]] = [:]
        for engine in TestEngine.allCases {
            let store = try engine.makeStore()
            try store.define(Self.schema)
            try store.save(records)
            var results: [[String]] = []
            for (recordType, format) in Self.predicates + Self.generatedPredicates(seed: seed) {
                let predicate = try Self.predicate(format)
                results.append(try store.records(ofType: recordType, matching: predicate).map(\.recordID.recordName))
                results.append(["count \(try store.count(ofType: recordType, matching: predicate))"])
            }
            for sorts in Self.sorts {
                let unpaged = try store.records(ofType: "Employee", matching: .truePredicate, sorts: sorts).map(\.recordID.recordName)
                results.append(unpaged)
                // Paged by cursor, 37 records a page: the same order, nothing lost or repeated.
                #expect(try WalkedSortPagingTests.pagedByCursor(store, sorts, size: 37) == unpaged, "\(engine), seed \(seed): \(sorts.map(\.key))")
            }
            var grouped = FetchRequest(entityName: "Employee", resultType: .dictionaries)
            grouped.propertiesToFetch = [
                "department.name", .aggregate(AggregateProperty(name: "n", function: .count, key: "name")),
                .aggregate(AggregateProperty(name: "top", function: .max, key: "salary")),
            ]
            grouped.propertiesToGroupBy = ["department.name"]
            results.append(try store.fetch(grouped).dictionaries.map { "\($0["department.name"] ?? .null) \($0["n"] ?? .null) \($0["top"] ?? .null)" }.sorted())
            answers[engine] = results
        }
        let reference = try #require(answers[.memory])
        // The reference answers are not trivial: most predicates match some records and not all.
        #expect(reference.filter { $0.count > 1 }.count >= 15)
        for engine in TestEngine.allCases where engine != .memory {
            for (index, answer) in (answers[engine] ?? []).enumerated() {
                let predicates = Self.predicates + Self.generatedPredicates(seed: seed)
                let label = index / 2 < predicates.count ? predicates[index / 2].format : "sorts and groups by to-one key paths (\(index))"
                #expect(answer == reference[index], "\(engine), seed \(seed): \(label)")
            }
        }
    }
}
