import Foundation
import Logging
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PredicateLanguage
@testable import QueryServer
import RecordStore

/// A `query serve` server on a free loopback port, over a store, for the length of a test;
/// requests go through a real socket (URLSession).
struct ServerHarness {
    let port: Int
    /// The store served: the production environment's.
    let store: Store
    /// The service the server runs.
    let service: CloudKitService
    /// The server itself.
    let server: CloudKitServer

    /// An answer: the HTTP status and the body as JSON.
    struct Answer {
        let status: Int
        let body: JSONValue
        let contentType: String?
        /// The answer's header fields, by lowercased name.
        var headers: [String: String] = [:]

        var errorCode: String? { body["serverErrorCode"]?.stringValue }
        var records: [JSONValue] { body["records"]?.arrayValue ?? [] }
        var recordNames: [String] { records.compactMap { $0["recordName"]?.stringValue } }
    }

    /// Runs `body` with a server over `store`, then stops the server.
    static func withServer<T: Sendable>(
        store: Store, configuration: CloudKitServer.Configuration = .init(host: "127.0.0.1", port: 0),
        logger: Logger? = nil, telemetryClock: (any TelemetryClock)? = nil,
        _ body: @Sendable (ServerHarness) async throws -> T
    ) async throws -> T {
        // Quiet unless a test listens: tests send bad requests on purpose, and those are logged.
        let logger = logger ?? {
            var logger = Logger(label: "query.serve.tests")
            logger.logLevel = .critical
            return logger
        }()
        let server = telemetryClock.map { CloudKitServer(store: store, configuration: configuration, logger: logger, telemetryClock: $0) }
            ?? CloudKitServer(store: store, configuration: configuration, logger: logger)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await server.run { port in continuation.yield(port) }
                return nil
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            let result = try await body(ServerHarness(port: port, store: store, service: server.service, server: server))
            group.cancelAll()
            return result
        }
    }

    /// The development environment's store (beside ``store``).
    func developmentStore() async throws -> Store {
        try await service.store(for: .development)
    }

    /// Applies a schema in CloudKit's schema language to the store: the record types, fields and
    /// indexes a test saves in the production environment, which refuses new ones (as CloudKit's).
    static func define(_ ckdb: String, in store: Store) async throws {
        try await store.apply(try CloudKitSchemaDocument(parsing: ckdb))
    }

    /// The path of an operation in the public production database: `records/query` and so on.
    static func path(_ operation: String, environment: String = "production", database: String = "public") -> String {
        "/database/1/iCloud.com.example.cities/\(environment)/\(database)/\(operation)"
    }

    /// Sends a request with a raw body (sent as `text/plain`, as CloudKit JS does) to a loopback
    /// port; the answer's head and its body's bytes.
    static func exchange(_ method: String, port: Int, _ path: String, body: String? = nil, headers: [String: String] = [:]) async throws -> (data: Data, response: HTTPURLResponse?) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, response as? HTTPURLResponse)
    }

    /// Sends a request with a raw body (sent as `text/plain`, as CloudKit JS does).
    func send(_ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:]) async throws -> Answer {
        let (data, http) = try await Self.exchange(method, port: port, path, body: body, headers: headers)
        let json = data.isEmpty ? JSONValue.null : try JSONValue(parsing: data)
        var fields: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return Answer(status: http?.statusCode ?? 0, body: json, contentType: http?.value(forHTTPHeaderField: "Content-Type"), headers: fields)
    }

    /// Sends a request and reads the answer as text (for the routes that answer more than JSON).
    func sendForText(_ method: String, _ path: String, headers: [String: String] = [:]) async throws -> (status: Int, text: String, contentType: String?) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, String(decoding: data, as: UTF8.self), http?.value(forHTTPHeaderField: "Content-Type"))
    }

    /// Posts a JSON value to an operation of the public production database.
    func post(_ operation: String, _ body: JSONValue, environment: String = "production", database: String = "public") async throws -> Answer {
        let text = String(decoding: body.jsonBytes(), as: UTF8.self)
        return try await send("POST", Self.path(operation, environment: environment, database: database), body: text)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(Dictionary(elements, uniquingKeysWith: { $1 })) }
    public init(nilLiteral: ()) { self = .null }
}

