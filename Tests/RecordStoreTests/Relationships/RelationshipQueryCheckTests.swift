import EngineTestSupport
import Foundation
import PredicateLanguage
import TestSupport
import Testing
@testable import RecordStore

/// `Store.check` (what `query serve`'s `predicates/check` and the console's check as you type
/// run) accepts what running the query accepts, through relationships too, and refuses with
/// the error running it throws (issue #52, item 2).
@Suite("Checking a query through relationships")
struct RelationshipQueryCheckTests {
    @Test(arguments: TestEngine.allCases)
    func theCheckAcceptsWhatRunningAccepts(engine: TestEngine) async throws {
        let store = try RelationshipWalkTests.company(engine)
        let cases: [(recordType: String, predicate: String, sorts: [Sort], valid: Bool)] = [
            ("Department", "employees.@count > 1", [], true),
            ("Department", "ANY employees.salary > 100000", [], true),
            ("Department", "employees CONTAINS %@", [], true),
            ("Department", "SUBQUERY(employees, $e, $e.salary > 100000).@count > 0", [], true),
            ("Employee", "department.name == 'Sales'", [Sort("department.name")], true),
            ("Employee", "manager.department.budget > 100", [], true),
            ("Employee", "projects.@count > 0", [], true),
            ("Project", "ANY members.name == 'Ada'", [], true),
            ("Department", "employees.salaryy > 1", [], false),
            ("Department", "staff.@count > 1", [], false),
            ("Employee", "department.nmae == 'Sales'", [], false),
            ("Employee", "salary.name == 'x'", [], false),
            ("Employee", "name == 'Ada'", [Sort("department.nmae")], false),
        ]
        for (recordType, format, sorts, valid) in cases {
            let arguments: [Value] = format.contains("%@") ? [.reference(Reference(recordName: "e1"))] : []
            let query = try RecordQuery(recordType: recordType, predicate: FormatPredicate(format: format, argumentArray: arguments), sorts: sorts)
            var checked: RecordStoreError?
            do { try await store.check(query) } catch { checked = error }
            var ran: RecordStoreError?
            do { _ = try await store.records(matching: query, resultsLimit: 10) } catch { ran = error }
            #expect((checked == nil) == valid, "\(format): \(String(describing: checked))")
            #expect(checked?.description == ran?.description, "\(format) on \(engine)")
        }
    }
}
