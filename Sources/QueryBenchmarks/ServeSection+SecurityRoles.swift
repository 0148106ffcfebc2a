// Part of the Server trait.
#if Server
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Crypto
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
                      target: .none, baselineName: "the same queries on a server without credentials, loaded in turn with it (also an API token's authentication)")
        if let wrk { try await measureHeldKey(report: report, store: store, workload: workload, wrk: wrk) }
    }

    /// The grants' own cost: one server-to-server key, signing each request, with full access on
    /// one server and held to the security roles on another (``ServerConfiguration/keysHeldToSecurityRoles``),
    /// over the same store, loaded in turn. Only the checking differs: reading the policy, and
    /// testing each answer's records against it.
    private func measureHeldKey(report: BenchmarkReport, store: Store, workload: [(body: Data, query: RecordQuery, limit: Int)], wrk: String) async throws {
        let key = P256.Signing.PrivateKey()
        let keyID = "bench-key"
        let pem = FileManager.default.temporaryDirectory.appendingPathComponent("query-bench-\(UUID().uuidString).pem")
        try key.publicKey.pemRepresentation.write(to: pem, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: pem) }
        var credentials = ServerCredentials()
        try credentials.addKey("\(keyID)=\(pem.path)")
        let full = CloudKitServer.Configuration(host: "127.0.0.1", port: 0, credentials: credentials, rateLimit: 0)
        var held = full
        held.keysHeldToSecurityRoles = [keyID]
        let (fullServing, fullPort) = try await Self.start(CloudKitServer(store: store, configuration: full))
        defer { fullServing.cancel() }
        let (heldServing, heldPort) = try await Self.start(CloudKitServer(store: store, configuration: held))
        defer { heldServing.cancel() }
        let path = "/database/1/iCloud.bench/production/public/records/query"
        // Signed once: a signature holds for its date's five minutes, longer than the rounds take.
        let date = ISO8601DateFormatter().string(from: Date())
        let headers = try workload.map { entry -> [String: String] in
            let digest = Data(SHA256.hash(data: entry.body)).base64EncodedString()
            let signature = try key.signature(for: Data("\(date):\(digest):\(path)".utf8))
            return ["X-Apple-CloudKit-Request-KeyID": keyID, "X-Apple-CloudKit-Request-ISO8601Date": date,
                    "X-Apple-CloudKit-Request-SignatureV1": signature.derRepresentation.base64EncodedString()]
        }
        func load(_ port: Int) async throws -> Double {
            try await Self.wrk(wrk, url: URL(string: "http://127.0.0.1:\(port)\(path)")!, bodies: workload.map(\.body), headers: headers,
                               clients: Self.clientCount).rate
        }
        let (fullRates, heldRates) = try await Self.inTurn(try await load(fullPort), try await load(heldPort))
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        report.figure("records/query requests/s at \(Self.clientCount) clients, a key held to security roles vs the key with full access",
                      measured: median(heldRates), baseline: median(fullRates), unit: "req/s",
                      target: .ratioAtLeast(0.95), baselineName: "the same signed queries from the same key, not held, loaded in turn with it")
    }
}
#endif
