import Foundation
import GRDB
import PredicateLanguage
import RecordStore
@testable import RecordStoreSQLite
import Testing
import TestSupport

/// Queries reuse their prepared statements within a budget of texts per connection, and stay
/// exact when the schema changes under a reused statement.
struct StatementCacheBudgetTests {
    @Test func aTextIsPreparedOnceUntilTheBudgetIsSpent() throws {
        let queue = try DatabaseQueue()
        let budget = StatementCacheBudget(limit: 2)
        try queue.inDatabase { db throws in
            let first = try budget.statement("SELECT 1", in: db)
            let reused = try budget.statement("SELECT 1", in: db)
            #expect(reused === first)
            _ = try budget.statement("SELECT 2", in: db)
            let stillReused = try budget.statement("SELECT 1", in: db)
            #expect(stillReused === first, "two texts fit the budget of 2")
            // A third text spends the budget: the connection's cache is emptied and starts again.
            _ = try budget.statement("SELECT 3", in: db)
            let again = try budget.statement("SELECT 1", in: db)
            #expect(again !== first)
            let reusedAgain = try budget.statement("SELECT 1", in: db)
            #expect(reusedAgain === again)
            let value = try Int.fetchOne(again)
            #expect(value == 1)
        }
    }

    @Test func connectionsAreCountedApart() throws {
        let budget = StatementCacheBudget(limit: 1)
        let one = try DatabaseQueue()
        let two = try DatabaseQueue()
        let kept = try one.inDatabase { db in try budget.statement("SELECT 1", in: db) }
        _ = try two.inDatabase { db in try budget.statement("SELECT 2", in: db) }
        let reused = try one.inDatabase { db in try budget.statement("SELECT 1", in: db) }
        #expect(reused === kept)
    }

    @Test func aReusedQueryAnswersExactlyAfterTheSchemaGrows() throws {
        let store = try Store.open(path: TestFolders.file("statement-cache", named: "store.sqlite"))
        let predicate = try FormatPredicate(format: "population > 100")
        _ = try store.save([Record(recordType: "City", recordID: RecordID(recordName: "a"), fields: ["population": 500])])
        for _ in 0..<3 {
            let names = try store.records(ofType: "City", matching: predicate).map(\.recordID.recordName)
            #expect(names == ["a"])
        }
        // A new field adds a column: the same query text reads it from then on.
        _ = try store.save([Record(recordType: "City", recordID: RecordID(recordName: "b"), fields: ["population": 700, "name": "Lyon"])])
        let records = try store.records(ofType: "City", matching: predicate)
        #expect(records.map(\.recordID.recordName) == ["a", "b"])
        #expect(records.map { $0["name"] } == [nil, .string("Lyon")])
    }
}
