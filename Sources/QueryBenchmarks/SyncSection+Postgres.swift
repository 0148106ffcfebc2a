#if PostgreSQL
import Foundation
import RecordStore
import RecordStorePostgres

extension SyncSection {
    /// The same figures on PostgreSQL when `QUERY_BENCH_POSTGRES_URL` is set: stores in three
    /// schemas of the run's own (zones of 10,000 and 1,000,000 `Item` records, and cities1000),
    /// dropped at the end.
    static func runOnPostgres(_ report: BenchmarkReport) async throws {
        guard let server = ProcessInfo.processInfo.environment["QUERY_BENCH_POSTGRES_URL"], !server.isEmpty else {
            report.note("PostgreSQL: skipped; set QUERY_BENCH_POSTGRES_URL=postgres://user:password@host:port/database (.ci/postgres start DIR PORT prints one)")
            return
        }
        StoreRegistry.shared.register(.postgres)
        let prefix = "bench_sync_" + UUID().uuidString.prefix(8).lowercased()
        let schemas = [prefix + "_small", prefix + "_large", prefix + "_cities"]
        let hand = try HandClient(url: server, schema: schemas[0])
        defer { hand.close() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("query-bench-sync-postgres-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            var stores: [Store] = []
            for (schema, count) in zip(schemas, [smallZone, largeZone]) {
                let store = try await Store.open(url: PostgresSection.url(server, schema: schema))
                let seconds = try await importItems(count: count, into: store, folder: folder)
                report.note(String(format: "PostgreSQL: imported %d Item records in %.1f s", count, seconds))
                stores.append(store)
            }
            try await measureChanges(report, small: stores[0], large: stores[1], engine: "PostgreSQL")
            let cities = try await Store.open(url: PostgresSection.url(server, schema: schemas[2]))
            _ = try await PostgresSection.importCities(into: cities, indexes: nil)
            try await measureFullSync(report, store: cities, engine: "PostgreSQL")
        } catch {
            try? await PostgresSection.drop(schemas, hand)
            throw error
        }
        try await PostgresSection.drop(schemas, hand)
        report.note("PostgreSQL: \(PostgresSection.redacted(server)); schemas \(schemas.joined(separator: ", ")), dropped")
    }
}
#endif
