import EngineTestSupport
import Foundation
import PredicateLanguage
import TestSupport
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// `explain` of a query on a parent type shows what runs for it: on the SQL engines the one
/// `UNION ALL` statement over every concrete type, its arguments and the database's plan of it,
/// or each type's statement and their merge in Swift when SQL cannot order them alike; on the
/// memory engine the scan of every type of the hierarchy. Staff model: `Person` (abstract) ←
/// `Employee` ← `Manager`, and `Person` ← `Contractor`.
@Suite("Explain over a hierarchy")
struct HierarchyExplainTests {
    static let unionHeading = "one statement for Person and its subtypes: UNION ALL of Contractor, Employee, Manager, merged in order by the database"

    /// A store with the staff model and 30 records of the three concrete types.
    static func store(_ engine: TestEngine) async throws -> Store {
        let store = try await EntityInheritanceTests.store(engine)
        _ = try await EntityInheritanceTests.randomStaff(store, count: 30, seed: 5)
        return store
    }

    /// A store, the plan of a page of 10 of `age >= 30` by age on the parent type, and its
    /// statement's `SELECT`s, one per concrete type in order, with the type of each.
    static func pagePlan(_ engine: TestEngine) async throws -> (store: Store, plan: QueryPlan, branches: [(number: Int, sql: String, type: String)]) {
        let store = try await store(engine)
        let plan = try await store.explain(ofType: "Person", matching: FormatPredicate(format: "age >= 30"), sorts: [Sort("age")], limit: 10)
        let parts = plan.sql.components(separatedBy: " UNION ALL ")
        #expect(parts.count == 3)
        return (store, plan, zip(parts, ["Contractor", "Employee", "Manager"]).enumerated().map { ($0, $1.0, $1.1) })
    }

    @Test("SQLite explains the UNION ALL statement a page of the parent type runs", arguments: [TestEngine.sqlite, .portableSQLite])
    func sqliteExplainsTheUnion(engine: TestEngine) async throws {
        let (store, plan, branches) = try await Self.pagePlan(engine)
        #expect(plan.engine == "sqlite")
        for (number, part, type) in branches {
            #expect(part.hasPrefix(#"SELECT \#(number), t.rowid, t."$recordName", "#), "\(part)")
            #expect(part.contains(#"FROM "\#(type)" AS t WHERE t."$zone" = ? AND (t."age" IS NOT NULL AND t."age" >= ?)"#), "\(part)")
        }
        #expect(plan.sql.hasSuffix(" ORDER BY 10 ASC, 3 ASC LIMIT ? OFFSET ?"), "\(plan.sql)")
        #expect(plan.arguments == [#""""#, "30", #""""#, "30", #""""#, "30", "10", "0"])
        #expect(plan.residual == nil)
        #expect(plan.indexesUsed == ["Contractor$age$index", "Employee$age$index", "Manager$age$index"])
        #expect(plan.queryPlanDetails == [
            Self.unionHeading,
            "MERGE (UNION ALL)", "LEFT", "MERGE (UNION ALL)", "LEFT",
            "SEARCH t USING INDEX Contractor$age$index ($zone=? AND age>?)", "RIGHT",
            "SEARCH t USING INDEX Employee$age$index ($zone=? AND age>?)", "RIGHT",
            "SEARCH t USING INDEX Manager$age$index ($zone=? AND age>?)",
        ])
        #expect(plan.estimatedRows.count == plan.queryPlanDetails.count)
        #expect(plan.description.contains("\nquery plan:\n  \(Self.unionHeading)\n  MERGE (UNION ALL)\n"), "\(plan)")
        // A type without subtypes keeps its one statement.
        let managers = try await store.explain(ofType: "Manager", matching: FormatPredicate(format: "age >= 30"), sorts: [Sort("age")])
        #expect(!managers.sql.contains("UNION ALL"))
        #expect(managers.queryPlanDetails == ["SEARCH t USING INDEX Manager$age$index ($zone=? AND age>?)"])
    }

    @Test("The residual is each type's when the types' differ", arguments: [TestEngine.sqlite, .portableSQLite, .postgres].filter(TestEngine.allCases.contains))
    func residualOfEachType(engine: TestEngine) async throws {
        let store = try await Self.store(engine)
        // `entity.name` is each branch's own type, decided before the planner sees the branch.
        let plan = try await store.explain(
            ofType: "Person", matching: FormatPredicate(format: "entity.name == 'Manager' OR age > score"), sorts: [Sort("age")], limit: 5)
        #expect(plan.queryPlanDetails.first == Self.unionHeading)
        #expect(plan.residual == "Contractor: FALSEPREDICATE OR age > score; Employee: FALSEPREDICATE OR age > score; Manager: TRUEPREDICATE OR age > score", "\(plan)")
        #expect(plan.sql.components(separatedBy: " UNION ALL ").count == 3)
        // Shared by every type: printed once.
        let shared = try await store.explain(ofType: "Person", matching: FormatPredicate(format: "age > score"), sorts: [Sort("age")], limit: 5)
        #expect(shared.residual == "age > score")
    }

    @Test("PostgreSQL explains the UNION ALL statement a page of the parent type runs", arguments: [TestEngine.postgres].filter(TestEngine.allCases.contains))
    func postgresExplainsTheUnion(engine: TestEngine) async throws {
        let (_, plan, branches) = try await Self.pagePlan(engine)
        #expect(plan.engine == "postgres")
        var marker = 1
        for (number, part, type) in branches {
            #expect(part.hasPrefix(#"SELECT \#(number), t."$recordName" COLLATE "C", t."$row", t."$recordName", "#), "\(part)")
            #expect(part.contains(#"FROM "\#(type)" AS t WHERE t."$zone" = $\#(marker) AND (t."age" IS NOT NULL AND t."age" >= $\#(marker + 1))"#), "\(part)")
            marker += 2
        }
        #expect(plan.sql.hasSuffix(" ORDER BY 11 ASC NULLS FIRST, 2 ASC LIMIT $7 OFFSET $8"), "\(plan.sql)")
        #expect(plan.arguments == [#""""#, "30", #""""#, "30", #""""#, "30", "10", "0"])
        #expect(plan.residual == nil)
        // PostgreSQL's EXPLAIN of the union: the limit over the three tables' scans.
        #expect(plan.queryPlanDetails.first == Self.unionHeading)
        #expect(plan.queryPlanDetails.dropFirst().first?.hasPrefix("Limit  (cost=") == true, "\(plan)")
        for (alias, type) in zip(["t", "t_1", "t_2"], ["Contractor", "Employee", "Manager"]) {
            #expect(plan.queryPlanDetails.contains { $0.contains(#" on "\#(type)" \#(alias)  (cost="#) }, "\(plan)")
        }
        #expect(plan.estimatedRows.count == plan.queryPlanDetails.count)
        #expect(plan.estimatedRows.first == .some(nil))
    }

    @Test("Types SQL cannot order alike are explained one statement each, merged in Swift", arguments: [TestEngine.portableSQLite, .postgres].filter(TestEngine.allCases.contains))
    func mergeInSwiftIsExplained(engine: TestEngine) async throws {
        let store = try await Self.store(engine)
        // Neither SQLite without callbacks nor PostgreSQL has the localized collation: Swift sorts each type.
        let plan = try await store.explain(
            ofType: "Person", matching: FormatPredicate(format: "age >= 30"), sorts: [Sort("recordName", comparison: .localized)], limit: 10)
        let statements = plan.sql.components(separatedBy: "; ")
        #expect(statements.count == 3)
        for (statement, type) in zip(statements, ["Contractor", "Employee", "Manager"]) {
            #expect(statement.hasPrefix("SELECT "), "\(statement)")
            #expect(!statement.contains("UNION ALL"))
            #expect(statement.contains(#"FROM "\#(type)" AS t WHERE"#), "\(statement)")
        }
        #expect(plan.arguments == [#""""#, "30", #""""#, "30", #""""#, "30"])
        let details = plan.queryPlanDetails
        #expect(details.first == "3 statements, one per record type, merged in Swift: SQL does not order Contractor, Employee, Manager as asked")
        #expect(details.last == "then merged in Swift in the query's order: the merge keeps at most 10")
        let sorted = "  sorted in Swift: SQL has no collation for recordName ASC localized"
        #expect(details.filter { $0 == sorted }.count == 3, "\(plan)")
        // Each type's lines follow its name, indented.
        let headings = ["Contractor:", "Employee:", "Manager:"].compactMap { details.firstIndex(of: $0) }
        #expect(headings.count == 3 && headings == headings.sorted())
        #expect(details.dropFirst().dropLast().allSatisfy { $0.hasSuffix(":") || $0.hasPrefix("  ") }, "\(plan)")
        #expect(plan.estimatedRows.count == details.count)
    }

    @Test("The memory engine's plan scans every type of the hierarchy")
    func memoryScansEveryType() async throws {
        let store = try await Self.store(.memory)
        let records = try await store.fetch(FetchRequest(entityName: "Person")).records
        let plan = try await store.explain(ofType: "Person", matching: FormatPredicate(format: "age >= 30"), sorts: [Sort("age")], limit: 10)
        #expect(plan.engine == "memory")
        #expect(plan.queryPlanDetails == ["scan every type of Person's hierarchy (Contractor, Employee, Manager) in zone _defaultZone, in one pass"])
        #expect(plan.estimatedRows == [records.count])
        #expect(plan.residual == "age >= 30")
        let employees = try await store.explain(ofType: "Employee", matching: FormatPredicate(format: "age >= 30"))
        #expect(employees.queryPlanDetails == ["scan every type of Employee's hierarchy (Employee, Manager) in zone _defaultZone, in one pass"])
        #expect(employees.estimatedRows == [records.filter { $0.recordType != "Contractor" }.count])
        // A type without subtypes: its own records.
        let managers = try await store.explain(ofType: "Manager", matching: FormatPredicate(format: "age >= 30"))
        #expect(managers.queryPlanDetails == ["scan Manager in zone _defaultZone"])
        #expect(managers.estimatedRows == [records.filter { $0.recordType == "Manager" }.count])
    }
}
