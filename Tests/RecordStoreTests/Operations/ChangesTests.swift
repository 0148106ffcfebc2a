import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

@Suite("Lookups by ID and batched changes")
struct ChangesTests {
    func failure(_ result: Result<Record, RecordStoreError>?) -> RecordStoreError? {
        if case .failure(let error)? = result { return error }
        return nil
    }

    @Test("Lookups report each missing ID")
    func lookups() throws {
        for store in try SmallStores.all() {
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
        for store in try SmallStores.all() {
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

    @Test("Deletions with expected change tags delete only the version read")
    func conditionalDeletions() throws {
        for store in try SmallStores.all() {
            let saved = try store.save(SmallStores.items(4))
            let tags = Dictionary(uniqueKeysWithValues: saved.map { ($0.recordID, $0.recordChangeTag ?? "") })
            let first = RecordID(recordName: "item000")
            let second = RecordID(recordName: "item001")
            let ghost = RecordID(recordName: "ghost")

            // Someone else changes item001 after we read it: deleting our version is a conflict,
            // and the atomic batch leaves item000 in place too.
            var changed = try #require(try store.record(for: second))
            changed["group"] = "changed elsewhere"
            let newTag = try #require(try store.save([changed]).first?.recordChangeTag)
            let refused = try store.modify(saving: [], deleting: [first, second], expectedChangeTags: [first: tags[first] ?? "", second: tags[second] ?? ""])
            #expect(refused.errors == [
                second: .conflict(second, expected: tags[second], found: newTag),
                first: .batchRequestFailed(first),
            ])
            #expect(try store.record(for: first) != nil)
            #expect(try store.record(for: second) != nil)

            // A record already gone is a conflict too when a version was expected ...
            let gone = try store.modify(saving: [], deleting: [ghost], expectedChangeTags: [ghost: "abc"])
            #expect(gone.errors == [ghost: .conflict(ghost, expected: "abc", found: nil)])
            // ... and not without one (CloudKit's unconditional delete).
            #expect(try store.modify(saving: [], deleting: [ghost]).isSuccess)

            // With the current tags both go, in one transaction.
            let accepted = try store.modify(saving: [], deleting: [first, second], expectedChangeTags: [first: tags[first] ?? "", second: newTag])
            #expect(accepted.isSuccess)
            #expect(try store.count(ofType: "Item", matching: .truePredicate) == 2)

            // Not atomically, each deletion is checked on its own.
            let third = RecordID(recordName: "item002")
            let fourth = RecordID(recordName: "item003")
            let separate = try store.modify(
                saving: [], deleting: [third, fourth], expectedChangeTags: [third: "stale", fourth: tags[fourth] ?? ""], atomically: false)
            #expect(separate.errors == [third: .conflict(third, expected: "stale", found: tags[third])])
            #expect(try store.record(for: third) != nil)
            #expect(try store.record(for: fourth) == nil)
        }
    }

    @Test("Non-atomic: each record succeeds or fails alone")
    func nonAtomic() throws {
        for store in try SmallStores.all() {
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
