// Part of the Server trait.
#if Server
import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore

/// A client of `query serve` that writes to its key's private database as a team's server would:
/// each request signed with a server-to-server key (CloudKit's `X-Apple-CloudKit-Request-*`
/// headers over the date, the body's SHA-256 and the path).
///
/// ```swift
/// let client = SignedWriteClient(port: port, keyID: "bench-key", key: key, connections: 1)
/// try await client.createZones(["bench-0"])
/// let rate = try await client.saveNewRecords(clients: 1, requestsPerClient: 100, round: "a")
/// try await client.shutdown()
/// ```
///
/// It sends through AsyncHTTPClient, as a team's Swift server would; Foundation's `URLSession`
/// on Linux (libcurl under Dispatch) took about as much of the machine's time per request as
/// the server did.
struct SignedWriteClient: Sendable {
    let port: Int
    let keyID: String
    let key: P256.Signing.PrivateKey
    let http: HTTPClient

    /// How many new records each `records/modify` saves.
    static let recordsPerRequest = 10

    init(port: Int, keyID: String, key: P256.Signing.PrivateKey, connections: Int) {
        self.port = port
        self.keyID = keyID
        self.key = key
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Closes the client's connections.
    func shutdown() async throws {
        try await http.shutdown()
    }

    /// Posts one signed request to a route of the development environment's private database;
    /// throws unless it answers 200 with no record or zone refused.
    ///
    /// The client spends as little of the machine's two cores as it can, since the server
    /// shares them: the body is written as text (not through `JSONSerialization`'s bridging),
    /// and the date by Foundation's own ISO 8601 style (not an ICU formatter per request).
    func post(_ route: String, _ body: String) async throws {
        let data = Data(body.utf8)
        let path = "/database/1/iCloud.bench/development/private/\(route)"
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = .POST
        request.body = .bytes(ByteBuffer(bytes: data))
        let date = Date().formatted(.iso8601)
        let digest = Data(SHA256.hash(data: data)).base64EncodedString()
        let signature = try key.signature(for: Data("\(date):\(digest):\(path)".utf8))
        request.headers.add(name: "X-Apple-CloudKit-Request-KeyID", value: keyID)
        request.headers.add(name: "X-Apple-CloudKit-Request-ISO8601Date", value: date)
        request.headers.add(name: "X-Apple-CloudKit-Request-SignatureV1", value: signature.derRepresentation.base64EncodedString())
        let response = try await http.execute(request, timeout: .seconds(60))
        let answer = try await response.body.collect(upTo: 16 << 20)
        // A refused record or zone is answered inside a 200, with its serverErrorCode. Looked
        // for byte by byte: the standard library's generic `firstRange(of:)` took a seventh of
        // the bench process's processor time, which the server it measures shares.
        guard response.status == .ok, !Self.contains(answer, "serverErrorCode") else {
            throw BenchmarkFailure("\(route) answered \(response.status.code): \(String(buffer: answer).prefix(400))")
        }
    }

    /// Whether the bytes hold the text (a plain scan for its first byte, then a comparison).
    static func contains(_ buffer: ByteBuffer, _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard let first = needle.first else { return true }
        return buffer.withUnsafeReadableBytes { bytes in
            guard bytes.count >= needle.count else { return false }
            for start in 0...(bytes.count - needle.count) where bytes[start] == first {
                if needle.indices.allSatisfy({ bytes[start + $0] == needle[$0] }) { return true }
            }
            return false
        }
    }

    /// Creates zones in the private database.
    func createZones(_ names: [String]) async throws {
        let operations = names.map { #"{"operationType": "create", "zone": {"zoneID": {"zoneName": "\#($0)"}}}"# }
        try await post("zones/modify", #"{"operations": [\#(operations.joined(separator: ", "))]}"#)
    }

    /// One request's body: new records in a zone, with a title, a rank and a score each (names
    /// and values need no escaping in JSON).
    static func body(zone: String, prefix: String) -> String {
        let operations = (0..<recordsPerRequest).map { index in
            #"{"operationType": "create", "record": {"recordName": "\#(prefix)-\#(index)", "recordType": "Note", "fields": "#
                + #"{"title": {"value": "note \#(prefix) \#(index)"}, "rank": {"value": \#(index)}, "score": {"value": \#(Double(index) / 3)}}}}"#
        }
        return #"{"zoneID": {"zoneName": "\#(zone)"}, "operations": [\#(operations.joined(separator: ", "))]}"#
    }

    /// Each of `clients` clients saves `requestsPerClient` requests of new records, one after the
    /// other, into its own zone (`bench-0`, `bench-1`, …); the records saved a second.
    func saveNewRecords(clients: Int, requestsPerClient: Int, round: String) async throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<clients {
                group.addTask {
                    for request in 0..<requestsPerClient {
                        try await post("records/modify", Self.body(zone: "bench-\(client)", prefix: "\(round)-\(client)-\(request)"))
                    }
                }
            }
            try await group.waitForAll()
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Double(clients * requestsPerClient * Self.recordsPerRequest) / seconds
    }

    /// The milliseconds one client's `records/modify` takes when it saves nothing: what HTTP,
    /// the signature, the route and the JSON cost a request, whatever the store (its floor).
    func emptyRequestMilliseconds(requests: Int) async throws -> Double {
        let body = #"{"zoneID": {"zoneName": "bench-0"}, "operations": []}"#
        try await post("records/modify", body)
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<requests { try await post("records/modify", body) }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 / Double(requests)
    }
}
#endif
