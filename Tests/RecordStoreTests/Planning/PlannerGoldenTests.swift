import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

/// Golden tests of ``SQLPlanner`` with the SQLite dialect: for each query, the exact SQL text
/// and arguments it plans, the residual it leaves to the evaluator, and the keyset segments.
/// A change to the planner that changes any of them shows here as a text difference, to be
/// read and accepted by updating the expected text (the PostgreSQL dialect has its own cases).
@Suite("Planner golden tests: the SQLite dialect's exact SQL")
struct PlannerGoldenTests {
    @Test(arguments: plannerGoldenCases)
    func planIsExactly(_ golden: PlannerGoldenCase) throws {
        let rendered = PlannerGoldenCase.render(try golden.plan())
        #expect(rendered == golden.expected, "\(golden)\n--- planned:\n\(rendered)")
    }

    @Test("Forty cases or more, none alike")
    func casesAreDistinct() {
        #expect(plannerGoldenCases.count >= 40)
        #expect(Set(plannerGoldenCases.map(\.description)).count == plannerGoldenCases.count)
    }
}
