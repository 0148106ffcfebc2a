import Foundation
import PredicateLanguage
import RecordStoreConformance
import Testing
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

@Suite("Conformance: every engine agrees on cities15000")
struct ConformanceTests {
    @Test("Every engine loads all 34,006 cities")
    func loaded() throws {
        for (engine, store) in try CitiesFixture.stores.get().all {
            #expect(try store.count(ofType: "City", matching: .truePredicate) == 34_006, "\(engine)")
        }
    }

    /// The suite engines of other packages run too (`RecordStoreConformance`: the query cases and
    /// the store behaviours), here on every engine.
    ///
    /// Synchronous, as the other tests of the shared stores are: Swift Testing runs synchronous
    /// tests on the cooperative pool, and an `async` SQLite read that waits there for a pool thread
    /// while holding one of GRDB's readers can starve synchronous readers on a two-core machine.
    @Test("Same records in the same order, and the store's behaviours", arguments: ConformanceCase.all)
    func sameResults(_ testCase: ConformanceCase) throws {
        let stores = try CitiesFixture.stores.get()
        for (engine, store) in stores.all {
            let differences = try SynchronousCall.wait {
                try await EngineConformance.differences(testCase, in: store, reference: stores.reference)
            }
            #expect(differences == [], "\(engine)")
        }
    }

    @Test("The data set the conformance library ships is the repository's Datasets/cities15000.jsonl.gz")
    func shippedDataset() throws {
        let shipped = try Data(contentsOf: URL(fileURLWithPath: EngineConformance.citiesDatasetPath()))
        let repository = try Data(contentsOf: URL(fileURLWithPath: CitiesFixture.datasetPath))
        #expect(shipped == repository)
    }
}
