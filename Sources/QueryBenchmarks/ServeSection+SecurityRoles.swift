// Part of the Server trait.
#if Server
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import QueryServer
import RecordStore

extension ServeSection {
    /// `records/query` from a caller held to the public database's security roles (an API token:
    /// the store's policy read and the grants checked on every request) against a server without
    /// credentials (nobody held), over the same store, loaded in turn round after round as
    /// ``measureInstrumentation(report:store:workload:)`` does.
    func measureSecurityRoles(report: BenchmarkReport, store: Store, workload: [(body: Data, query: RecordQuery, limit: Int)]) async throws {
        // Explicit grants for the benchmark's type: every request reads and checks them.
        var policy = try await store.securityPolicy()
        policy.grants["City"] = [CloudKitSchemaGrant(permissions: [.read], role: SecurityRole.world),
                                 CloudKitSchemaGrant(permissions: [.create], role: SecurityRole.authenticated),
                                 CloudKitSchemaGrant(permissions: [.write], role: SecurityRole.creator)]
        try await store.setSecurityPolicy(policy)
        let open = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, rateLimit: 0)
        var credentials = ServerCredentials()
        credentials.apiTokens = ["bench-token"]
        let held = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, credentials: credentials, rateLimit: 0)
        let (openServing, openPort) = try await Self.start(CloudKitServer(store: store, configuration: open))
        defer { openServing.cancel() }
        let (heldServing, heldPort) = try await Self.start(CloudKitServer(store: store, configuration: held))
        defer { heldServing.cancel() }
        let openURL = URL(string: "http://127.0.0.1:\(openPort)/database/1/iCloud.bench/production/public/records/query")!
        let heldURL = URL(string: "http://127.0.0.1:\(heldPort)/database/1/iCloud.bench/production/public/records/query?ckAPIToken=bench-token")!
        let wrk = Self.executable("wrk")
        let configuration = URLSessionConfiguration.default
        configuration.httpMaximumConnectionsPerHost = Self.clientCount
        let session = URLSession(configuration: configuration)
        func load(_ url: URL) async throws -> Double {
            if let wrk { return try await Self.wrk(wrk, url: url, bodies: workload.map(\.body), clients: Self.clientCount).rate }
            return Double(Self.requestCount) / (try await Self.http(session, url, workload, clients: Self.clientCount, requests: Self.requestCount)).seconds
        }
        _ = try await Self.http(session, openURL, workload, clients: Self.clientCount, requests: 160)
        _ = try await Self.http(session, heldURL, workload, clients: Self.clientCount, requests: 160)
        let (openRates, heldRates) = try await Self.inTurn(try await load(openURL), try await load(heldURL))
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        report.figure("records/query requests/s at \(Self.clientCount) clients, held to security roles (API token) vs nobody held",
                      measured: median(heldRates), baseline: median(openRates), unit: "req/s",
                      target: .ratioAtLeast(0.95), baselineName: "the same queries on a server without credentials, loaded in turn with it")
    }
}
#endif
