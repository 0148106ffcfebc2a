import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// Issue #28: what a save reports and how live results changed print as positions and names.
@Suite("Changes print as a user reads them")
struct ChangeDescriptionTests {
    @Test("A difference lists deleted, inserted, moved and updated positions")
    func differences() {
        let old: [(id: String, version: Int)] = [("a", 1), ("b", 1), ("c", 1), ("d", 1)]
        let new: [(id: String, version: Int)] = [("e", 1), ("d", 1), ("a", 2), ("b", 1)]
        let difference = ResultsDifference(old: old, new: new)
        #expect(difference.description == "deleted [2], inserted [0], moved [3 → 1], updated [0 → 2]")
        #expect(ResultsDifference(old: old, new: old).description == "no change")
        #expect(ResultsDifference(old: [("a", 1)], new: [("a", 2)]).description == "updated [0]")
    }

    @Test("A modify result names what was saved, deleted and refused, by record name")
    func modifyResults() {
        let result = ModifyResult(
            saveResults: [
                RecordID(recordName: "paris"): .success(Record(recordType: "City", recordID: RecordID(recordName: "paris"))),
                RecordID(recordName: "lyon"): .success(Record(recordType: "City", recordID: RecordID(recordName: "lyon"))),
                RecordID(recordName: "nice"): .failure(.recordNotFound(RecordID(recordName: "nice"))),
            ],
            deleteResults: [RecordID(recordName: "old"): .success(())])
        #expect(result.description == "saved [lyon, paris]; deleted [old]; failed: nice: \(RecordStoreError.recordNotFound(RecordID(recordName: "nice")))")
        #expect(ModifyResult(saveResults: [:], deleteResults: [:]).description == "nothing saved or deleted")
    }

    @Test("A live query's elements print their kind, their count and their difference")
    func resultsChanges() async throws {
        let store = try await Store.open(url: "memory:")
        _ = try await store.save([Record(recordType: "Item", recordID: RecordID(recordName: "a"), fields: ["n": 1])])
        var changes = store.observe(try RecordQuery(recordType: "Item", predicate: .truePredicate, sorts: [Sort("n")])).makeAsyncIterator()
        #expect(try await changes.next()?.description == "initial: 1 record")
        _ = try await store.save([Record(recordType: "Item", recordID: RecordID(recordName: "b"), fields: ["n": 0])])
        #expect(try await changes.next()?.description == "changed: 2 records; inserted [0]")
    }
}
