// Part of the Server and PostgreSQL traits.
#if Server && PostgreSQL
import Foundation
import PostgresNIO
import RecordStore

extension WritesSection {
    /// The PostgreSQL figures, in schemas of the run's own (dropped at the end): 1 client against
    /// the hand-written inserts, and 16 clients on 16 zones against 1 client.
    func measurePostgres(report: BenchmarkReport) async throws {
        guard let server = ProcessInfo.processInfo.environment["QUERY_BENCH_POSTGRES_URL"], !server.isEmpty else {
            report.note("PostgreSQL: skipped; set QUERY_BENCH_POSTGRES_URL (.ci/postgres start DIR PORT prints one; QUERY_POSTGRES_FSYNC=on for a server that syncs)")
            return
        }
        StoreRegistry.shared.register(.postgres)
        let schema = "bench_writes_" + UUID().uuidString.prefix(8).lowercased()
        // A schema a round for the hand-written inserts: each makes its table anew.
        let handSchemas = (0..<Self.rounds).map { schema + "_hand\($0)" }
        let layoutSchemas = (0..<Self.rounds).map { schema + "_layout\($0)" }
        let hand = try HandClient(url: server, schema: handSchemas[0])
        defer { hand.close() }
        do {
            let store = try await Store.open(url: PostgresSection.url(server, schema: schema))
            var ones = ServedRounds(), manys = ServedRounds()
            var hands: [Double] = [], layouts: [Double] = []
            for round in 0..<Self.rounds {
                ones.add(try await Self.serveRate(store, clients: 1, round: "one-\(round)"))
                hands.append(try await HandWrittenInserts.postgresRate(
                    hand, schema: handSchemas[round], transactions: Self.requestsPerClient, rowsPerTransaction: SignedWriteClient.recordsPerRequest))
                layouts.append(try await HandWrittenInserts.postgresStoreLayoutRate(
                    hand, schema: layoutSchemas[round], transactions: Self.requestsPerClient, rowsPerTransaction: SignedWriteClient.recordsPerRequest))
                manys.add(try await Self.serveRate(store, clients: Self.clientCount, round: "many-\(round)"))
            }
            let handSpread = Spread(hands)
            let (one, byHand, many) = (ones.rates.median, handSpread.median, manys.rates.median)
            let fsync = try await HandWrittenInserts.setting("fsync", hand)
            report.figure("PostgreSQL: records/modify, 1 client, 10 new records a request", measured: one, baseline: byHand, unit: "rec/s",
                          target: .ratioAtLeast(0.5), baselineName: "the same rows inserted by hand through PostgresNIO, 10 per transaction (one multi-row INSERT), into a table of the same columns")
            report.figure("PostgreSQL: records/modify, \(Self.clientCount) clients on \(Self.clientCount) zones vs 1 client", measured: many, baseline: one, unit: "rec/s",
                          target: .ratioAtLeast(4), baselineName: "1 client, as above")
            report.note("PostgreSQL: fsync \(fsync), \(ProcessInfo.processInfo.activeProcessorCount) cores shared by the server, the clients and PostgreSQL; \(PostgresSection.redacted(server))")
            // What bounds the concurrent figure: with one client's processor time a request and
            // every processor busy, no lock-free server could go further than `ceiling`.
            report.note("PostgreSQL, \(Self.rounds) rounds (min / median / max): 1 client \(ones.rates.text(unit: "rec/s")); by hand \(handSpread.text(unit: "rec/s")); "
                + "\(Self.clientCount) clients \(manys.rates.text(unit: "rec/s"))")
            if let oneLoad = ones.firstLoad {
                report.note("PostgreSQL, 1 client, first round: \(oneLoad.description); at its processor time a request, all cores busy would give at most \(String(format: "%.2f", oneLoad.ceiling))x")
            }
            if let manyLoad = manys.firstLoad { report.note("PostgreSQL, \(Self.clientCount) clients, first round: \(manyLoad.description)") }
            report.note(Self.floorNote(engine: "PostgreSQL", floor: ones.floor, baseline: byHand))
            let layout = Spread(layouts)
            report.note("PostgreSQL, the same rows inserted by hand into the layout the store keeps (five field indexes, a full-text vector under GIN, registry with positions: "
                + "store-layout-notes-postgres.sql), 1 connection: \(layout.text(unit: "rec/s")), \(String(format: "%.2f", layout.median / byHand))x the figure's baseline "
                + "(what a server storing that layout could reach at most); records/modify over HTTP, 1 client, is \(String(format: "%.2f", one / layout.median))x that")
        } catch {
            try? await PostgresSection.drop([schema] + handSchemas + layoutSchemas, hand)
            throw error
        }
        try await PostgresSection.drop([schema] + handSchemas + layoutSchemas, hand)
    }
}
#endif
