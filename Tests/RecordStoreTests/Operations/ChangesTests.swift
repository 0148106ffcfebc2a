import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore

@Suite("Lookups by ID and batched changes")
struct ChangesTests {
    func failure(_ result: Result<Record, RecordStoreError>?) -> RecordStoreError? {
        if case .failure(let error)? = result { return error }
        return nil
    }

    @Test("Lookups report each missing ID")
    func lookups() throws {
        for store in try SmallStores.both() {
            try store.save(SmallStores.items(3))
            let missing = RecordID(recordName: "ghost")
            let elsewhere = RecordID(recordName: "item001", zoneID: ZoneID(zoneName: "Other"))
            let found = try store.records(for: [RecordID(recordName: "item001"), missing, elsewhere])
            #expect(found.count == 3)
            #expect((try? found[RecordID(recordName: "item001")]?.get())?["title"] == "beta 1")
            #expect(failure(found[missing]) == .recordNotFound(missing))
            #expect(failure(found[elsewhere]) == .recordNotFound(elsewhere))
        }
    }

    @Test("Atomic: all or nothing; the failing record names its error, the others batchRequestFailed")
    func atomic() throws {
        for store in try SmallStores.both() {
            try store.save(SmallStores.items(3))
            var stale = Record(recordType: "Item", recordID: RecordID(recordName: "item000"))   // no change tag: a conflict
            stale["group"] = "z"
            var fresh = Record(recordType: "Item", recordID: RecordID(recordName: "fresh"))
            fresh["group"] = "y"
            let doomed = RecordID(recordName: "item002")
            let result = try store.modify(saving: [fresh, stale], deleting: [doomed], atomically: true)
            #expect(!result.isSuccess)
            #expect(result.errors == [
                stale.recordID: .conflict(stale.recordID, expected: nil, found: try store.record(for: stale.recordID)?.recordChangeTag),
                fresh.recordID: .batchRequestFailed(fresh.recordID),
                doomed: .batchRequestFailed(doomed),
            ])
            #expect(try store.record(for: fresh.recordID) == nil)
            #expect(try store.record(for: doomed) != nil)

            let together = try store.modify(saving: [fresh], deleting: [doomed])
            #expect(together.isSuccess)
            #expect((try? together.saveResults[fresh.recordID]?.get())?.recordChangeTag != nil)
            #expect(try store.record(for: doomed) == nil)
            #expect(try store.count(ofType: "Item", matching: .truePredicate) == 3)
        }
    }

    @Test("Non-atomic: each record succeeds or fails alone")
    func nonAtomic() throws {
        for store in try SmallStores.both() {
            try store.save(SmallStores.items(3))
            var stale = Record(recordType: "Item", recordID: RecordID(recordName: "item000"))
            stale["group"] = "z"
            var fresh = Record(recordType: "Item", recordID: RecordID(recordName: "fresh"))
            fresh["group"] = "y"
            var badType = Record(recordType: "Item", recordID: RecordID(recordName: "bad"))
            badType["rank"] = "not a number"
            let result = try store.modify(saving: [stale, fresh, badType], deleting: [RecordID(recordName: "item002")], atomically: false)
            #expect(Set(result.errors.keys) == [stale.recordID, badType.recordID])
            #expect(result.errors[badType.recordID] == .typeMismatch(field: "rank", recordType: "Item", schemaType: .int64, valueType: "string"))
            #expect(try store.record(for: fresh.recordID)?["group"] == "y")
            #expect(try store.record(for: RecordID(recordName: "item002")) == nil)
            #expect(try store.record(for: stale.recordID)?["group"] == "a")
        }
    }
}
