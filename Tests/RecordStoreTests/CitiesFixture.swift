import Foundation
import PredicateLanguage
@testable import RecordStore

/// The cities15000 data set loaded once into a memory store and a SQLite store.
enum CitiesFixture {
    /// `../shared/datasets/cities15000.jsonl.gz`, from the package root.
    static let datasetPath: String = {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/datasets/cities15000.jsonl.gz").path
    }()

    /// A fresh temporary database path.
    static func temporaryDatabasePath(_ name: String) -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-store-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("\(name).sqlite").path
    }

    static func importer() -> RecordImporter {
        var importer = RecordImporter(recordType: "City")
        importer.idField = "geonameid"
        importer.locations = [.init(name: "location", latitudeField: "latitude", longitudeField: "longitude")]
        return importer
    }

    /// Both stores, loaded (or the error that stopped loading).
    static let stores: Result<(memory: Store, sqlite: Store), RecordStoreError> = {
        do throws(RecordStoreError) {
            let memory = Store.inMemory()
            let sqlite = try Store.open(path: temporaryDatabasePath("cities"))
            _ = try importer().importFile(at: datasetPath, into: memory)
            _ = try importer().importFile(at: datasetPath, into: sqlite)
            return .success((memory, sqlite))
        } catch {
            return .failure(error)
        }
    }()
}
