import EngineTestSupport
import Foundation
import PredicateLanguage
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite

/// The cities15000 data set loaded once into a store of every ``TestEngine``.
enum CitiesFixture {
    /// `Datasets/cities15000.jsonl.gz`, shipped in the repository.
    static let datasetPath: String = TestEngine.datasetPath("cities15000.jsonl.gz")

    /// A fresh temporary database path.
    static func temporaryDatabasePath(_ name: String) -> String {
        TestEngine.temporaryDatabasePath(name)
    }

    static func importer() -> RecordImporter {
        var importer = RecordImporter(recordType: "City")
        importer.idField = "geonameid"
        importer.locations = [.init(name: "location", latitudeField: "latitude", longitudeField: "longitude")]
        // Every index type: the tests over this data check the indexed plans (list members,
        // folded forms, localized sort keys) against the memory engine.
        importer.justInTimeIndexes = .all
        return importer
    }

    /// A store of every engine, loaded, in ``TestEngine/allCases`` order (or the error that stopped loading).
    static let stores: Result<EngineStores, any Error> = {
        do {
            var stores: [(TestEngine, Store)] = []
            for engine in TestEngine.allCases {
                let store = try engine.makeStore()
                _ = try importer().importFile(at: datasetPath, into: store)
                try store.define(DifferentialDataset.declaredOnly)
                stores.append((engine, store))
            }
            return .success(EngineStores(stores))
        } catch {
            return .failure(error)
        }
    }()
}

/// One store per ``TestEngine``, holding the same records.
struct EngineStores: Sendable {
    /// Every engine's store, in ``TestEngine/allCases`` order.
    let all: [(engine: TestEngine, store: Store)]

    init(_ all: [(TestEngine, Store)]) {
        self.all = all.map { (engine: $0.0, store: $0.1) }
    }

    /// The reference engine's store, whose answers the others must give.
    var reference: Store { self[TestEngine.reference] }

    /// The stores of the engines checked against the reference.
    var others: [(engine: TestEngine, store: Store)] { all.filter { $0.engine != TestEngine.reference } }

    /// Every store, in ``TestEngine/allCases`` order.
    var stores: [Store] { all.map(\.store) }

    subscript(engine: TestEngine) -> Store {
        all.first { $0.engine == engine }!.store
    }
}
