import Foundation
import PredicateLanguage
import RecordStore

/// The store section's import figures: rates and sizes with the default indexes and with every
/// index, each beside the same layout written by hand, and the sizes beside the JSON.
extension StoreSection {
    /// Imports cities1000 through `RecordImporter` into a new store: with the record type's
    /// defaults (``IndexPolicy/automatic`` for a new type) when `indexes` is nil, as
    /// `query import` does; the store, its file and the seconds taken.
    static func importCities(indexes: IndexPolicy?, file: String) throws -> (store: Store, path: String, seconds: Double) {
        let path = Datasets.temporaryDatabase(file)
        let store = try Store.open(path: path)
        var importer = RecordImporter(recordType: "City")
        importer.idField = "geonameid"
        importer.locations = [.init(name: "location", latitudeField: "latitude", longitudeField: "longitude")]
        importer.justInTimeIndexes = indexes
        let seconds = try Stopwatch.seconds(runs: 1) {
            _ = try importer.importFile(at: Datasets.path(StoreSection.dataset), into: store)
        }
        return (store, path, seconds)
    }

    /// Imports cities1000 with the defaults and with `--indexes all`, and the same rows by hand
    /// into one bare table and into each same layout (``SameLayoutImport``); reports the rates
    /// and the sizes. Returns the store with the defaults (for the indexed queries) and the path
    /// of the one with every index (its list is `QUERYABLE`, for the `ANY` figures).
    func measureImports(_ report: BenchmarkReport, cities: [[String: Value]]) throws -> (store: Store, path: String, allIndexesPath: String) {
        let json = StorageSize.megabytes(try StorageSize.jsonLinesBytes(StoreSection.dataset))
        // Ours through RecordImporter (rows, derived columns, full text, location index; list members
        // only with every index), with the defaults and with every index...
        let defaults = try StoreSection.importCities(indexes: nil, file: "store")
        let all = try StoreSection.importCities(indexes: .all, file: "store-all")
        // ...against hand-written batched inserts of the same rows into one table (lists as
        // JSON text), 5,000 rows a transaction...
        let bareSeconds = try Stopwatch.seconds(runs: 1) {
            try StoreSection.handWrittenImport(cities, path: Datasets.temporaryDatabase("hand"))
        }
        // ...and against hand-written inserts that build each of the engine's layouts.
        var sameLayout: [IndexPolicy: (seconds: Double, megabytes: Double)] = [:]
        for indexes in [IndexPolicy.automatic, .all] {
            let path = Datasets.temporaryDatabase("same-layout-\(indexes.rawValue)")
            let seconds = try Stopwatch.seconds(runs: 1) { try SameLayoutImport(indexes: indexes).run(cities, path: path) }
            sameLayout[indexes] = (seconds, StorageSize.megabytes(try StorageSize.sqliteBytes(path)))
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let rate = { (seconds: Double) in Double(cities.count) / seconds / 1000 }
        report.note(String(format: "import of %d cities with the defaults: %.1f s, %.1f k records/s; with every index: %.1f s",
                           cities.count, defaults.seconds, rate(defaults.seconds), all.seconds))
        report.figure("import rate vs the same layout by hand", measured: rate(defaults.seconds),
                      baseline: rate(sameLayout[.automatic]!.seconds), unit: "k rec/s", target: .ratioAtLeast(1.5),
                      baselineName: "hand-written batched inserts into the default layout, already indexed (derived columns, FTS5, location band index); target (#29): at least 1.5x their rate")
        report.figure("import rate vs one bare table", measured: rate(defaults.seconds),
                      baseline: rate(bareSeconds), unit: "k rec/s", target: .ratioAtLeast(0.3),
                      baselineName: "hand-written batched inserts into one table with two indexes, lists as JSON (no derived columns, FTS, location index); target (#29): at least 0.3x")
        report.figure("import rate, all indexes, vs the same layout by hand", measured: rate(all.seconds),
                      baseline: rate(sameLayout[.all]!.seconds), unit: "k rec/s", target: .none,
                      baselineName: "hand-written batched inserts into every index's layout (sort keys, list members and their indexes too); informative")

        let defaultsSize = StorageSize.megabytes(try StorageSize.sqliteBytes(defaults.path))
        let allSize = StorageSize.megabytes(try StorageSize.sqliteBytes(all.path))
        report.note(String(format: "cities1000 as JSON lines: %.1f MB; sizes are file plus -wal after a checkpoint, in MB of 10^6 bytes", json))
        report.figure("store size, defaults, vs the same layout by hand", measured: defaultsSize, baseline: sameLayout[.automatic]!.megabytes,
                      unit: "MB", target: .none, baselineName: "the hand-written default layout above, same tables, columns and indexes")
        report.figure("store size with the default indexes vs the JSON", measured: defaultsSize, baseline: json, unit: "MB", target: .ratioAtMost(3),
                      baselineName: "cities1000.jsonl uncompressed; target (#29): at most 3x")
        report.figure("store size, all indexes, vs the same layout by hand", measured: allSize, baseline: sameLayout[.all]!.megabytes,
                      unit: "MB", target: .none, baselineName: "the hand-written layout with every index above")
        report.figure("store size with every index vs the JSON", measured: allSize, baseline: json, unit: "MB", target: .none,
                      baselineName: "cities1000.jsonl uncompressed; informative (10.4x before index types)")
        return (defaults.store, defaults.path, all.path)
    }
}
