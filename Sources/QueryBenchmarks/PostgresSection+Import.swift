// Part of the PostgreSQL trait.
#if PostgreSQL
import Foundation
import PostgresNIO
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreSQL

/// The PostgreSQL section's imports and sizes.
extension PostgresSection {
    /// Imports cities1000 through `RecordImporter`, with the record type's defaults when
    /// `indexes` is nil; the seconds taken.
    static func importCities(into store: Store, indexes: IndexPolicy?) async throws -> Double {
        var importer = RecordImporter(recordType: "City")
        importer.idField = "geonameid"
        importer.locations = [.init(name: "location", latitudeField: "latitude", longitudeField: "longitude")]
        importer.justInTimeIndexes = indexes
        let started = DispatchTime.now().uptimeNanoseconds
        _ = try await importer.importFile(at: Datasets.path(StoreSection.dataset), into: store)
        return Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    }

    /// The relation sizes of each store (labelled, read through a client of its schema), beside
    /// the same tables made again by hand (``HandClient/sameLayoutBytes(schema:)``) and beside
    /// the JSON (judged by `target`).
    func measureSizes(_ report: BenchmarkReport, stores: [(label: String, client: HandClient, schema: String, target: BenchmarkReport.Target)]) async throws {
        let json = StorageSize.megabytes(try StorageSize.jsonLinesBytes(StoreSection.dataset))
        for (label, client, schema, target) in stores {
            let size = StorageSize.megabytes(try await client.totalRelationBytes(try await client.storeTables(schema: schema)))
            let sameLayout = StorageSize.megabytes(try await client.sameLayoutBytes(schema: schema))
            report.figure("relation sizes, \(label), vs same layout by hand", measured: size, baseline: sameLayout, unit: "MB", target: .none,
                          baselineName: "each of the store's tables made again by hand (CREATE TABLE LIKE … INCLUDING ALL: same columns and indexes) and filled by INSERT … SELECT")
            report.figure("relation sizes, \(label), vs the JSON", measured: size, baseline: json, unit: "MB", target: target,
                          baselineName: "cities1000.jsonl uncompressed" + (label == "defaults" ? "; target (#29): at most 3x" : "; informative"))
        }
        report.note("sizes: the sum of pg_total_relation_size (tables, indexes, TOAST) of the store's tables, in MB of 10^6 bytes")
    }
}
#endif
