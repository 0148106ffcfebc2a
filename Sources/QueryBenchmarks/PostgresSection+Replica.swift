// Part of the PostgreSQL trait.
#if PostgreSQL
import Foundation
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreSQL
import RecordStorePostgres

/// Indexed queries through a store whose reads go to a read replica, against the same store's
/// queries on the primary (#49).
extension PostgresSection {
    /// Runs when `QUERY_BENCH_POSTGRES_REPLICA` names a hot standby of the server
    /// (`host:port`; `.ci/postgres replica DIR PORT PRIMARY_PORT` starts one): the store's
    /// schema opened again with `?replica=host:port`, once the standby has replayed the import,
    /// timed query by query beside the store on the primary. Target: at most 1.1x.
    func measureReplicaReads(_ report: BenchmarkReport, server: String, schema: String, primaryStore: Store) async throws {
        guard let replica = ProcessInfo.processInfo.environment["QUERY_BENCH_POSTGRES_REPLICA"], !replica.isEmpty else {
            report.note("replica reads skipped: set QUERY_BENCH_POSTGRES_REPLICA=host:port of a standby (.ci/postgres replica DIR PORT PRIMARY_PORT starts one)")
            return
        }
        let replicaStore = try await Store.open(url: Self.url(server, schema: schema) + "&replica=" + replica)
        // Wait until the standby has replayed the import (PostgreSQL 15 has no event for it).
        guard var components = URLComponents(string: server) else { throw BenchmarkError("QUERY_BENCH_POSTGRES_URL is not a URL") }
        let parts = replica.split(separator: ":")
        components.host = String(parts[0])
        components.port = parts.count > 1 ? Int(parts[1]) : 5432
        guard let replicaURL = components.string else { throw BenchmarkError("QUERY_BENCH_POSTGRES_REPLICA must be host:port") }
        try await PostgresAdministration.waitForReplay(primary: server, replica: replicaURL, interval: .milliseconds(50))
        let queries: [(name: String, predicate: FormatPredicate, sorts: [Sort], limit: Int?)] = [
            ("indexed equality: name == \"Springfield\"", try FormatPredicate(format: "name == %@", "Springfield"), [], nil),
            ("range, sort, limit 50: population 100k-200k", try FormatPredicate(format: "population BETWEEN {100000, 200000}"),
             [Sort("population", ascending: false)], 50),
        ]
        for query in queries {
            var onReplica: [Double] = []
            var onPrimary: [Double] = []
            var counts = (0, 0)
            for _ in 0..<5 {
                _ = try await replicaStore.records(ofType: "City", matching: query.predicate, sorts: query.sorts, limit: query.limit)
                _ = try await primaryStore.records(ofType: "City", matching: query.predicate, sorts: query.sorts, limit: query.limit)
            }
            for _ in 0..<25 {
                let start = DispatchTime.now().uptimeNanoseconds
                counts.0 = try await replicaStore.records(ofType: "City", matching: query.predicate, sorts: query.sorts, limit: query.limit).count
                onReplica.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                let primaryStart = DispatchTime.now().uptimeNanoseconds
                counts.1 = try await primaryStore.records(ofType: "City", matching: query.predicate, sorts: query.sorts, limit: query.limit).count
                onPrimary.append(Double(DispatchTime.now().uptimeNanoseconds - primaryStart) / 1e6)
            }
            report.figure("replica: " + query.name, measured: Self.median(onReplica), baseline: Self.median(onPrimary), unit: "ms",
                          target: .ratioAtMost(1.1),
                          baselineName: "the same query through a store without replicas, on the primary (\(counts.1) records; the replica's store returned \(counts.0)); target (#49): at most 1.1x")
        }
    }
}
#endif
