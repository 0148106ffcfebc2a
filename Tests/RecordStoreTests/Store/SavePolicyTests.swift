import EngineTestSupport
import Foundation
import PredicateLanguage
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore

/// Issue #28: `Store.save(_:policy:)` with CloudKit's save policies, on every engine.
@Suite("Save policies: upserts and merges on every engine")
struct SavePolicyTests {
    let id = RecordID(recordName: "1")

    func city(_ fields: [String: Value]) -> Record {
        Record(recordType: "City", recordID: id, fields: fields)
    }

    @Test("allKeys inserts, then replaces whatever is stored, without a change tag", arguments: TestEngine.allCases)
    func allKeys(engine: TestEngine) throws {
        let store = try engine.makeStore()
        let inserted = try store.save([city(["name": "Paris", "population": 2_138_551])], policy: .allKeys)[0]
        let replaced = try store.save([city(["name": "Paris"])], policy: .allKeys)[0]
        let stored = try #require(try store.record(for: id))
        #expect(stored.fields == ["name": "Paris"])
        #expect(stored.recordChangeTag == replaced.recordChangeTag)
        #expect(replaced.recordChangeTag != inserted.recordChangeTag)
        #expect(stored.creationDate == inserted.creationDate)
        #expect(try store.count(ofType: "City", matching: .truePredicate) == 1)
    }

    @Test("changedKeys merges the given fields into the stored ones", arguments: TestEngine.allCases)
    func changedKeys(engine: TestEngine) throws {
        let store = try engine.makeStore()
        try store.save([city(["name": "Paris"])], policy: .changedKeys)
        try store.save([city(["population": 2_138_551])], policy: .changedKeys)
        try store.save([city(["name": "Paris, France"])], policy: .changedKeys)
        #expect(try store.record(for: id)?.fields == ["name": "Paris, France", "population": 2_138_551])
    }

    @Test("ifServerRecordUnchanged is the plain save: a record without the stored change tag is a conflict", arguments: TestEngine.allCases)
    func ifServerRecordUnchanged(engine: TestEngine) throws {
        let store = try engine.makeStore()
        let saved = try store.save([city(["name": "Paris"])], policy: .ifServerRecordUnchanged)[0]
        #expect(throws: RecordStoreError.conflict(id, expected: nil, found: saved.recordChangeTag)) {
            try store.save([city(["name": "Lutetia"])], policy: .ifServerRecordUnchanged)
        }
        #expect(try store.record(for: id)?.fields == ["name": "Paris"])
    }

    @Test("The async forms answer the same", arguments: TestEngine.allCases)
    func asyncForms(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await store.save([city(["name": "Paris"])], policy: .allKeys)
        try await store.save([city(["population": 1])], policy: .changedKeys)
        #expect(try await store.record(for: id)?.fields == ["name": "Paris", "population": 1])
    }
}
