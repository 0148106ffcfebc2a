import EngineTestSupport
import Foundation
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
import Testing

/// `Store.removeSibling(named:)`: the sibling's records, zones, schema and secret go, the next
/// opening finds it empty, and the store beside it keeps everything; on every engine.
@Suite struct SiblingRemovalTests {
    @Test("a removed sibling opens again empty, and the store beside it keeps its own", arguments: TestEngine.allCases)
    func removal(engine: TestEngine) async throws {
        let store = try engine.makeStore()
        try await store.save([SchemaGrowthTests.record("City", "paris", ["population": 2_138_551])])
        // Removing a sibling never opened does nothing.
        try await store.removeSibling(named: "development")
        let sibling = try await store.openSibling(named: "development")
        try await sibling.createZone(ZoneID(zoneName: "Archive"))
        try await sibling.save([SchemaGrowthTests.record("Note", "n1", ["title": "Hello"])])
        let before = sibling.engine.secret.storeIdentifier

        try await store.removeSibling(named: "development")
        let again = try await store.openSibling(named: "development")
        #expect(try await again.schema().isEmpty)
        #expect(try await again.record(for: RecordID(recordName: "n1")) == nil)
        #expect(try await again.zones().contains(ZoneID(zoneName: "Archive")) == false)
        #expect(again.engine.secret.storeIdentifier != before)
        // It works as a new store.
        try await again.save([SchemaGrowthTests.record("Note", "n2", ["title": "Again"])])
        #expect(try await again.record(for: RecordID(recordName: "n2"))?["title"] == .string("Again"))
        // The store beside it is untouched.
        #expect(try await store.record(for: RecordID(recordName: "paris"))?["population"] == .int(2_138_551))
        #expect(try await store.schema().map(\.name) == ["City"])

        await #expect(throws: RecordStoreError.invalidStoreLocation(
            "the store 'Dev/../x' beside a \(engine.engineName) store", reason: "a sibling's name is 1 to 32 ASCII lower-case letters and digits")) {
            try await store.removeSibling(named: "Dev/../x")
        }
    }
}
