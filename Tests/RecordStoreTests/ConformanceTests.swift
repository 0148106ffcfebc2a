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

    /// The query cases of the suite engines of other packages run too (`RecordStoreConformance`),
    /// here on every engine.
    ///
    /// Synchronous, as the other tests of the shared stores are: Swift Testing runs synchronous
    /// tests on the cooperative pool, and an `async` SQLite read that waits there for a pool thread
    /// while holding one of GRDB's readers can starve synchronous readers on a two-core machine.
    @Test("Same records in the same order", arguments: ConformanceCase.cities15000)
    func sameResults(_ testCase: ConformanceCase) throws {
        let stores = try CitiesFixture.stores.get()
        for (engine, store) in stores.all {
            let differences = try SynchronousCall.wait {
                try await EngineConformance.differences(testCase, in: store, reference: stores.reference)
            }
            #expect(differences == [], "\(engine)")
        }
    }

    /// The store behaviours of the suite (``ConformanceCase/storeBehaviors``), on every engine.
    ///
    /// `async`, unlike the query cases: a live query's observation and the saves it waits for
    /// run on the cooperative pool, which the synchronous tests beside it may all be holding.
    @Test("The store's behaviours", arguments: ConformanceCase.storeBehaviors)
    func behaviours(_ testCase: ConformanceCase) async throws {
        let stores = try CitiesFixture.stores.get()
        for (engine, store) in stores.all {
            let differences = try await EngineConformance.differences(testCase, in: store, reference: stores.reference)
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
