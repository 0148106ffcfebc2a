import Foundation
import RecordStore

/// `cities1000.jsonl.gz` (170,391 cities) imported once per run into a temporary SQLite file,
/// shared by the paging, streaming, output, concurrency, serve and predicate sections.
/// `QUERY_BENCH_CITIES_DB` names an existing file to reuse.
///
/// The fields get the default indexes (``IndexPolicy/automatic``), except `name`, declared
/// before the import (``cityType``) to be also `SORTABLE`: the paging section's keyset pages
/// under `name`'s localized order seek its sort-key index, which the defaults leave out.
enum Cities1000Database {
    static let recordCount = 170_391

    /// `City` as the sections' queries need it: `name` `QUERYABLE` (equality, prefixes, folded
    /// forms), `SORTABLE` (its localized sort keys, for the paging section) and `SEARCHABLE` (full
    /// text); every other field gains the defaults just in time (numbers `QUERYABLE` and
    /// `SORTABLE`: `population` ranges and sorts; `location` `QUERYABLE`: radius queries).
    static let cityType = RecordTypeSchema(
        name: "City",
        fields: [FieldSchema(name: "name", type: .string, isQueryable: true, isSortable: true, isSearchable: true)],
        justInTimeIndexes: .automatic)

    private static let cached = LockedState<String?>(nil)

    /// Where this run imports the dataset.
    private static let importDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("query-bench-\(UUID().uuidString)")

    /// The database file, importing the dataset the first time.
    static func path() throws -> String {
        if let path = ProcessInfo.processInfo.environment["QUERY_BENCH_CITIES_DB"] { return path }
        if let path = cached.withLock({ $0 }) { return path }
        let directory = importDirectory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The file is 0.5 GB: removed when the run ends.
        atexit { try? FileManager.default.removeItem(at: Cities1000Database.importDirectory) }
        let path = directory.appendingPathComponent("cities1000.sqlite").path
        let store = try Store.open(path: path)
        try store.define(cityType)
        var importer = RecordImporter(recordType: "City")
        importer.idField = "geonameid"
        importer.locations = [.init(name: "location", latitudeField: "latitude", longitudeField: "longitude")]
        let summary = try importer.importFile(at: Datasets.folder.appendingPathComponent("cities1000.jsonl.gz").path, into: store)
        print("    imported \(summary.recordCount) cities into \(path) in \(String(format: "%.1f", summary.elapsed)) s")
        cached.withLock { $0 = path }
        return path
    }
}
