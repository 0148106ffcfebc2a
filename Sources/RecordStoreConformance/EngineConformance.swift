import Foundation
import PredicateLanguage
import RecordStoreCore

/// The conformance suite a storage engine runs: the same data in the engine under test and in
/// the memory engine (the reference), the same queries on both, and every difference reported.
///
/// It is independent of any test framework: each check returns the differences it found, and
/// an empty list means the engine agrees. An engine in a package of its own runs it from its
/// tests after `import RecordStoreConformance` (see the article "Writing a storage engine"):
///
/// ```swift
/// let store = Store(engine: MyEngine())
/// let reference = Store.inMemory()
/// for target in [store, reference] {
///     try await EngineConformance.loadCities(into: target)   // the data set this library ships
/// }
/// for testCase in ConformanceCase.all {
///     #expect(try await EngineConformance.differences(testCase, in: store, reference: reference) == [])
/// }
/// ```
public enum EngineConformance {
    /// The record type of the cities data set.
    public static let cityType = "City"

    /// The file name of the cities data set, a resource of this library (the same bytes as the
    /// repository's `Datasets/cities15000.jsonl.gz`).
    public static let citiesDatasetName = "cities15000.jsonl.gz"

    /// The path of the cities data set this library ships as a resource, so that a package of
    /// its own needs no copy of the repository's `Datasets/` folder.
    ///
    /// ```swift
    /// let path = try EngineConformance.citiesDatasetPath()
    /// ```
    ///
    /// - Throws: ``RecordStoreError/invalidStoreLocation(_:reason:)`` when the resource bundle
    ///   lacks the file (a build that left the library's resources out).
    public static func citiesDatasetPath() throws(RecordStoreError) -> String {
        let candidates = [
            Bundle.module.resourceURL?.appendingPathComponent(citiesDatasetName),
            Bundle.module.url(forResource: "cities15000.jsonl", withExtension: "gz"),
        ]
        for case let url? in candidates where FileManager.default.fileExists(atPath: url.path) {
            return url.path
        }
        throw .invalidStoreLocation(citiesDatasetName, reason: "the resource bundle of RecordStoreConformance (\(Bundle.module.bundlePath)) has no such file")
    }

    /// Imports the cities data set this library ships (``citiesDatasetPath()``) into a store, as
    /// ``loadCities(from:into:)`` does.
    ///
    /// ```swift
    /// try await EngineConformance.loadCities(into: store)
    /// ```
    public static func loadCities(into store: Store) async throws(RecordStoreError) {
        try await loadCities(from: citiesDatasetPath(), into: store)
    }

    /// Imports a GeoNames cities file (`Datasets/cities15000.jsonl.gz`, or the copy this library
    /// ships: ``loadCities(into:)``) as `City` records
    /// named by their `geonameid`, with a `location` made of each city's latitude and longitude,
    /// and declares the field `missingField` (a string no record has) that some cases sort by.
    public static func loadCities(from path: String, into store: Store) async throws(RecordStoreError) {
        var importer = RecordImporter(recordType: cityType)
        importer.idField = "geonameid"
        importer.locations = [.init(name: "location", latitudeField: "latitude", longitudeField: "longitude")]
        _ = try await importer.importFile(at: path, into: store)
        try await store.define(RecordTypeSchema(name: cityType, fields: [FieldSchema(name: "missingField", type: .string)]))
        try await store.optimize()
    }

    /// Runs one case and returns each difference as a sentence; an empty list when the engine
    /// agrees.
    ///
    /// A query case runs on both stores: the records' names in order (the first `limit` of them)
    /// must equal the reference's, and the count must be the case's expected count. A behaviour
    /// case (``ConformanceCase/behavior``) runs on `store` alone, in zones of its own, and
    /// compares each result with the exact one expected; an error it did not expect is a
    /// difference too.
    ///
    /// ```swift
    /// let differences = try await EngineConformance.differences(ConformanceCase(behavior: .saves), in: store, reference: reference)
    /// ```
    public static func differences(_ testCase: ConformanceCase, in store: Store, reference: Store) async throws -> [String] {
        if let behavior = testCase.behavior {
            return await differences(behavior, in: store)
        }
        let predicate = try FormatPredicate(format: testCase.format, argumentArray: testCase.arguments)
        let expected = try await recordNames(testCase, predicate: predicate, in: reference)
        let names = try await recordNames(testCase, predicate: predicate, in: store)
        var differences: [String] = []
        if names != expected {
            let first = zip(names, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(names.count, expected.count)
            differences.append("\(testCase): \(names.count) records where the reference has \(expected.count); they differ from position \(first)")
        }
        let count = try await store.count(ofType: cityType, matching: predicate)
        if count != testCase.expectedCount {
            differences.append("\(testCase): counted \(count), expected \(testCase.expectedCount)")
        }
        return differences
    }

    /// Runs one behaviour check on a store, then deletes the zones it made.
    private static func differences(_ behavior: StoreBehavior, in store: Store) async -> [String] {
        var check = BehaviorCheck(behavior, store: store)
        do throws(RecordStoreError) {
            switch behavior {
            case .saves: try await checkSaves(&check)
            case .conflicts: try await checkConflicts(&check)
            case .savePolicies: try await checkSavePolicies(&check)
            case .zones: try await checkZones(&check)
            case .changeHistory: try await checkChangeHistory(&check)
            case .changeHistoryPaging: try await checkChangeHistoryPaging(&check)
            case .assets: try await checkAssets(&check)
            case .liveChanges: try await checkLiveChanges(&check)
            }
        } catch {
            check.fail("unexpected error: \(error)")
        }
        await check.cleanUp()
        return check.differences
    }

    private static func recordNames(_ testCase: ConformanceCase, predicate: FormatPredicate, in store: Store) async throws(RecordStoreError) -> [String] {
        try await store.records(ofType: cityType, matching: predicate, sorts: testCase.sorts, limit: testCase.limit).map(\.recordID.recordName)
    }
}
