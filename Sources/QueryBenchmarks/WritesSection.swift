// Part of the Server trait.
#if Server
import Crypto
import Foundation
import QueryServer
import RecordStore

/// `records/modify` over HTTP, clients saving 10 new records a request into zones of their key's
/// private database, against the same rows inserted by hand, 10 per transaction, into a table of
/// the same columns: on SQLite (through GRDB, in a file with the store's settings) and on
/// PostgreSQL (through PostgresNIO, when `QUERY_BENCH_POSTGRES_URL` names a server). On
/// PostgreSQL also 16 clients on 16 zones against 1 client. Targets (#49): at least 0.5x the
/// hand-written inserts, and at least 4x from 16 clients.
///
/// Each figure is the median of ``rounds`` rounds, and each round measures the store and its
/// baseline one after the other, so that a machine whose speed drifts during the run (another
/// process, the file system's writeback) moves both sides of a ratio alike; the notes give each
/// side's spread.
///
/// The notes split a write's time: the same rows inserted by hand into the layout the store keeps
/// for them (its field indexes, full text and registry: `store-layout-notes.sql`,
/// `store-layout-notes-postgres.sql`), and, on SQLite, the same saves made in process
/// (`Store.save`, no HTTP). Against the first, the figure's baseline is a table with its key alone.
struct WritesSection: BenchmarkSection {
    let name = "writes"
    let title = "Writes: records/modify over HTTP, 10 new records a request, against the same rows inserted by hand"

    /// Requests each client sends in a measured round: 150, or `QUERY_BENCH_WRITES_REQUESTS` (a
    /// longer run steadies the figures and gives a profiler enough samples).
    static let requestsPerClient = ProcessInfo.processInfo.environment["QUERY_BENCH_WRITES_REQUESTS"].flatMap { Int($0) }.map { max($0, 1) } ?? 150
    /// The clients of the concurrent figure, each on a zone of its own.
    static let clientCount = 16
    /// The rounds each figure is the median of.
    static let rounds = 3

    func run(report: BenchmarkReport) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("query-bench-writes-\(UUID().uuidString)").path
        defer {
            let hands = (0..<Self.rounds).flatMap { [".hand\($0)", ".layout\($0)"] }
            for suffix in ["", "-wal", "-shm"] + hands.flatMap({ [$0, $0 + "-wal", $0 + "-shm"] }) { try? FileManager.default.removeItem(atPath: path + suffix) }
            try? FileManager.default.removeItem(atPath: path + ".assets")
        }
        let sqlite = try Store.open(path: path)
        var served = ServedRounds()
        var hand: [Double] = [], layout: [Double] = [], inProcess: [Double] = []
        for round in 0..<Self.rounds {
            served.add(try await Self.serveRate(sqlite, clients: 1, round: "one-\(round)"))
            // A file a round: each makes its tables anew.
            hand.append(try await HandWrittenInserts.sqliteRate(
                path: path + ".hand\(round)", transactions: Self.requestsPerClient, rowsPerTransaction: SignedWriteClient.recordsPerRequest))
            layout.append(try await HandWrittenInserts.sqliteStoreLayoutRate(
                path: path + ".layout\(round)", transactions: Self.requestsPerClient, rowsPerTransaction: SignedWriteClient.recordsPerRequest))
            inProcess.append(try await Self.inProcessRate(sqlite, round: round))
        }
        let handSpread = Spread(hand)
        report.figure("SQLite: records/modify, 1 client, 10 new records a request", measured: served.rates.median, baseline: handSpread.median, unit: "rec/s",
                      target: .ratioAtLeast(0.5), baselineName: "the same rows inserted by hand through GRDB, 10 per transaction, into a table of the same columns (WAL, synchronous=NORMAL as the store)")
        report.note("SQLite, \(Self.rounds) rounds (min / median / max): records/modify \(served.rates.text(unit: "rec/s")); by hand \(handSpread.text(unit: "rec/s"))")
        if let load = served.firstLoad { report.note("SQLite, 1 client, first round: \(load.description)") }
        report.note(Self.floorNote(engine: "SQLite", floor: served.floor, baseline: handSpread.median))
        let (inProcessSpread, layoutSpread) = (Spread(inProcess), Spread(layout))
        report.note("SQLite, where the time goes (min / median / max of the same rounds): the same rows inserted by hand into the layout the store keeps (five field indexes, "
                    + "full text, registry, change log: store-layout-notes.sql) \(layoutSpread.text(unit: "rec/s")), \(String(format: "%.2f", layoutSpread.median / handSpread.median))x "
                    + "the figure's baseline (what a server storing that layout could reach at most); the same saves in process (Store.save, no HTTP) "
                    + "\(inProcessSpread.text(unit: "rec/s")), \(String(format: "%.2f", inProcessSpread.median / layoutSpread.median))x the layout by hand; "
                    + "records/modify over HTTP \(String(format: "%.2f", served.rates.median / layoutSpread.median))x")
        #if PostgreSQL
        try await measurePostgres(report: report)
        #else
        report.note("PostgreSQL: built without the PostgreSQL trait")
        #endif
    }

    /// The records a second `records/modify` saves on a server over `store` from `clients`
    /// signed clients on zones of their own (after a warm-up request from each), how busy
    /// the processors were meanwhile, and then what a request that saves nothing takes (ms).
    static func serveRate(_ store: Store, clients: Int, round: String) async throws -> (rate: Double, load: ProcessorLoad, floor: Double) {
        let key = P256.Signing.PrivateKey()
        let pem = FileManager.default.temporaryDirectory.appendingPathComponent("query-bench-\(UUID().uuidString).pem")
        try key.publicKey.pemRepresentation.write(to: pem, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: pem) }
        var credentials = ServerCredentials()
        try credentials.addKey("bench-key=\(pem.path)")
        let configuration = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, credentials: credentials, rateLimit: 0)
        let (serving, port) = try await ServeSection.start(CloudKitServer(store: store, configuration: configuration))
        defer { serving.cancel() }
        let client = SignedWriteClient(port: port, keyID: "bench-key", key: key, connections: clients)
        do {
            try await client.createZones((0..<clients).map { "bench-\($0)" })
            _ = try await client.saveNewRecords(clients: clients, requestsPerClient: 2, round: round + "-warm")
            let start = ProcessorLoad.Sample.now()
            let rate = try await client.saveNewRecords(clients: clients, requestsPerClient: requestsPerClient, round: round)
            let load = ProcessorLoad(from: start, to: .now())
            let floor = try await client.emptyRequestMilliseconds(requests: requestsPerClient)
            try await client.shutdown()
            return (rate, load, floor)
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// Records a second saved in process (`Store.save`, no HTTP) into a zone of `store`, as
    /// many saves of 10 new records as a served round sends: what the store itself takes,
    /// beside the served figure.
    static func inProcessRate(_ store: Store, round: Int) async throws -> Double {
        let zone = ZoneID(zoneName: "bench-in-process-\(round)")
        try await store.createZone(zone)
        func records(_ save: Int) -> [Record] {
            (0..<SignedWriteClient.recordsPerRequest).map { index in
                Record(recordType: "Note", recordID: RecordID(recordName: "in-\(save)-\(index)", zoneID: zone),
                       fields: ["title": .string("note \(round) \(save) \(index)"), "rank": .int(Int64(index)), "score": .double(Double(index) / 3)])
            }
        }
        try await store.save(records(-1))
        let start = DispatchTime.now().uptimeNanoseconds
        for save in 0..<requestsPerClient { try await store.save(records(save)) }
        return Double(requestsPerClient * SignedWriteClient.recordsPerRequest) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// What the floor allows: a request that saves nothing takes `floor` ms, so 10 records a
    /// request could go no faster than 10 per `floor` even if storing them cost nothing.
    static func floorNote(engine: String, floor: Double, baseline: Double) -> String {
        let ceiling = Double(SignedWriteClient.recordsPerRequest) / (floor / 1000)
        return String(format: "%@: a records/modify that saves nothing takes %.3f ms (HTTP, signature, route, JSON): at that alone, 10 records a request reach at most %.0f rec/s, %.2fx the hand-written inserts", engine, floor, ceiling, ceiling / baseline)
    }
}
#endif
