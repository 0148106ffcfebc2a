// Part of the Server trait.
#if Server
import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of `query serve` that writes to its key's private database as a team's server would:
/// each request signed with a server-to-server key (CloudKit's `X-Apple-CloudKit-Request-*`
/// headers over the date, the body's SHA-256 and the path).
///
/// ```swift
/// let client = try SignedWriteClient(port: port, keyID: "bench-key", key: key)
/// try await client.createZones(["bench-0"])
/// let rate = try await client.saveNewRecords(clients: 1, requestsPerClient: 100, round: "a")
/// ```
struct SignedWriteClient: Sendable {
    let port: Int
    let keyID: String
    let key: P256.Signing.PrivateKey
    let session: URLSession

    /// How many new records each `records/modify` saves.
    static let recordsPerRequest = 10

    init(port: Int, keyID: String, key: P256.Signing.PrivateKey, connections: Int) {
        self.port = port
        self.keyID = keyID
        self.key = key
        let configuration = URLSessionConfiguration.default
        configuration.httpMaximumConnectionsPerHost = connections
        session = URLSession(configuration: configuration)
    }

    /// Posts one signed request to a route of the development environment's private database;
    /// throws unless it answers 200 with no record or zone refused.
    func post(_ route: String, _ body: [String: Any]) async throws {
        let data = try JSONSerialization.data(withJSONObject: body)
        let path = "/database/1/iCloud.bench/development/private/\(route)"
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else { throw BenchmarkFailure("no URL for \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = data
        let date = ISO8601DateFormatter().string(from: Date())
        let digest = Data(SHA256.hash(data: data)).base64EncodedString()
        let signature = try key.signature(for: Data("\(date):\(digest):\(path)".utf8))
        request.setValue(keyID, forHTTPHeaderField: "X-Apple-CloudKit-Request-KeyID")
        request.setValue(date, forHTTPHeaderField: "X-Apple-CloudKit-Request-ISO8601Date")
        request.setValue(signature.derRepresentation.base64EncodedString(), forHTTPHeaderField: "X-Apple-CloudKit-Request-SignatureV1")
        let (answer, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        // A refused record or zone is answered inside a 200, with its serverErrorCode.
        guard status == 200, answer.range(of: Data("serverErrorCode".utf8)) == nil else {
            throw BenchmarkFailure("\(route) answered \(status): \(String(decoding: answer.prefix(400), as: UTF8.self))")
        }
    }

    /// Creates zones in the private database.
    func createZones(_ names: [String]) async throws {
        try await post("zones/modify", ["operations": names.map { ["operationType": "create", "zone": ["zoneID": ["zoneName": $0]]] }])
    }

    /// One request's new records: a title, a rank and a score each.
    static func operations(_ prefix: String) -> [[String: Any]] {
        (0..<recordsPerRequest).map { index in
            ["operationType": "create", "record": [
                "recordName": "\(prefix)-\(index)", "recordType": "Note",
                "fields": ["title": ["value": "note \(prefix) \(index)"], "rank": ["value": index], "score": ["value": Double(index) / 3]],
            ] as [String: Any]]
        }
    }

    /// Each of `clients` clients saves `requestsPerClient` requests of new records, one after the
    /// other, into its own zone (`bench-0`, `bench-1`, …); the records saved a second.
    func saveNewRecords(clients: Int, requestsPerClient: Int, round: String) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<clients {
                group.addTask {
                    for request in 0..<requestsPerClient {
                        try await post("records/modify", [
                            "zoneID": ["zoneName": "bench-\(client)"],
                            "operations": Self.operations("\(round)-\(client)-\(request)"),
                        ])
                    }
                }
            }
            try await group.waitForAll()
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Double(clients * requestsPerClient * Self.recordsPerRequest) / seconds
    }
}
#endif
