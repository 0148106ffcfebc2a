import Foundation
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore
import RecordStoreConformance
import Testing

/// The conformance suite, run the way a package of its own runs it against its engine: the
/// engine (``DictionaryEngine``) sees only the published contract, registers its scheme and
/// opens through the registry like any other.
@Suite("An engine from outside the package passes the conformance suite")
struct ExternalEngineTests {
    /// The engine's store and the memory engine's, each loaded with `cities15000`.
    static let stores: Result<(store: Store, reference: Store), RecordStoreError> = {
        do throws(RecordStoreError) {
            StoreRegistry.shared.register(.dictionary)
            let store = try Store.open(StoreLocation("dictionary:"))
            let reference = try Store.open(StoreLocation("memory:"))
            for target in [store, reference] {
                // The data set the conformance library ships as a resource.
                try SynchronousCall.wait { () async throws(RecordStoreError) in try await EngineConformance.loadCities(into: target) }
            }
            return .success((store, reference))
        } catch {
            return .failure(error)
        }
    }()

    @Test("Its change history answers changes since a token, through the published ChangeHistoryBook")
    func changeHistory() throws {
        StoreRegistry.shared.register(.dictionary)
        let store = try Store.open(StoreLocation("dictionary:"))
        let notes = ZoneID(zoneName: "Notes")
        try store.createZone(notes)
        let ids = ["a", "b"].map { RecordID(recordName: $0, zoneID: notes) }
        _ = try store.save(ids.map { Record(recordType: "Note", recordID: $0, fields: ["text": .string($0.recordName)]) })
        let first = try store.changes(in: notes)
        #expect(first.changedRecords.map(\.recordID.recordName) == ["a", "b"])
        try store.delete([ids[0]])
        let next = try store.changes(in: notes, since: first.token)
        #expect(next.changedRecords.isEmpty)
        #expect(next.deletedRecords == [DeletedRecord(recordID: ids[0], recordType: "Note")])
        #expect(try store.databaseChanges().changedZones.contains(notes))
    }

    @Test("It opens through the registry and names itself in plans")
    func opensThroughTheRegistry() throws {
        let (store, _) = try Self.stores.get()
        #expect(try store.explain(ofType: "City", matching: FormatPredicate.truePredicate).engine == "dictionary")
        // The engine answers synchronously too: the blocking forms reach its `async` methods.
        #expect(try store.count(ofType: "City", matching: FormatPredicate.truePredicate) == 34_006)
    }

    @Test("Every conformance case: same records in the same order, the expected count, the store's behaviours", arguments: ConformanceCase.all)
    func conformance(_ testCase: ConformanceCase) async throws {
        let (store, reference) = try Self.stores.get()
        #expect(try await EngineConformance.differences(testCase, in: store, reference: reference) == [])
    }

    @Test("Saves follow the shared rules: a stale change tag is a conflict, nothing half applied")
    func saveRules() async throws {
        // Registering again replaces the registration; this test may run before `stores` is made.
        StoreRegistry.shared.register(.dictionary)
        let store = try await Store.open(url: "dictionary:")
        let saved = try await store.save([Record(recordType: "Note", recordID: RecordID(recordName: "a"), fields: ["text": "first"])])
        var stale = saved[0]
        stale["text"] = "second"
        _ = try await store.save([stale])
        stale["text"] = "third"
        await #expect(throws: RecordStoreError.self) { try await store.save([stale]) }
        let stored = try await store.records(ofType: "Note", matching: FormatPredicate.truePredicate)
        #expect(stored.map { $0["text"] } == [.string("second")])
    }
}

/// An engine that provides no ``AssetStorage`` still compiles and opens; its asset operations
/// answer a typed error naming it.
@Suite struct ExternalEngineAssetTests {
    @Test func assetOperationsOnAnEngineWithoutAssetStorageAreATypedError() async throws {
        let store = Store(engine: DictionaryEngine())
        do {
            _ = try await store.saveAsset(Data("bytes".utf8))
            Issue.record("the dictionary engine kept an asset")
        } catch {
            guard case .unsupported(engine: "dictionary") = error else { Issue.record("unexpected \(error)"); return }
            #expect(error.description == "the dictionary engine keeps no assets (it provides no AssetStorage)")
        }
        do {
            _ = try await store.assetData(Asset(bytes: Data("bytes".utf8)))
            Issue.record("the dictionary engine read an asset")
        } catch {
            #expect(error.description == "the dictionary engine keeps no assets (it provides no AssetStorage)")
        }
    }
}
