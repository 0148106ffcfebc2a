import Foundation
import Hummingbird
import Logging
import NIOCore
import PredicateLanguage
import RecordStore

/// `query serve`: an HTTP server that speaks CloudKit Web Services over a ``Store``.
///
/// Routes, under `/database/1/{container}/{environment}/{database}/`:
/// `POST records/query`, `POST records/lookup`, `POST records/modify`, `GET zones/list`,
/// `POST zones/lookup`, `POST zones/modify`; and `GET /health`. Environments are
/// `development` and `production`, databases `public` and `private` (``Namespace``). Bodies
/// are JSON, whatever their content type (CloudKit JS sends `text/plain`). Errors are
/// CloudKit's `{uuid, serverErrorCode, reason}` with its HTTP status; `uuid` is the request's
/// ID, also in the server's log line for it.
///
/// ```swift
/// let server = CloudKitServer(store: store, configuration: .init(host: "127.0.0.1", port: 8080))
/// try await server.run()
/// ```
public struct CloudKitServer: Sendable {
    /// Where and how the server listens.
    public struct Configuration: Sendable {
        /// The address to bind (loopback unless given).
        public var host: String
        /// The port (0: any free port, reported to `onListening`).
        public var port: Int
        /// The only container served, or nil for any (all containers then share the store).
        public var container: String?
        /// The rules `query.predicate` follows (`cloudKit` unless started with `--rules full`).
        public var predicateRules: PredicateRules
        /// The largest request body accepted, in bytes.
        public var maximumBodySize: Int

        public init(host: String = "127.0.0.1", port: Int = 8080, container: String? = nil,
                    predicateRules: PredicateRules = .cloudKit, maximumBodySize: Int = 4 << 20) {
            self.host = host
            self.port = port
            self.container = container
            self.predicateRules = predicateRules
            self.maximumBodySize = maximumBodySize
        }
    }

    public let service: CloudKitService
    public let configuration: Configuration
    private let logger: Logger

    public init(store: Store, configuration: Configuration = Configuration(), logger: Logger = Logger(label: "query.serve")) {
        service = CloudKitService(store: store, predicateRules: configuration.predicateRules)
        self.configuration = configuration
        self.logger = logger
    }

    /// Serves until the task is cancelled or the process gets SIGINT or SIGTERM (requests in
    /// flight finish first). `onListening` learns the bound port once the server listens.
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let application = Application(
            router: router(),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "query"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
        try await application.runService()
    }

    /// The server's routes.
    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("health") { _, _ in
            Self.response(.object(["status": .string("ok")]), status: .ok)
        }
        let database = router.group("database/1/:container/:environment/:database")
        database.post("records/query") { request, context in
            await handle(request, context) { body, namespace in try await service.query(body, in: namespace) }
        }
        database.post("records/lookup") { request, context in
            await handle(request, context) { body, namespace in try await service.lookup(body, in: namespace) }
        }
        database.post("records/modify") { request, context in
            await handle(request, context) { body, namespace in try await service.modify(body, in: namespace) }
        }
        database.get("zones/list") { request, context in
            await handle(request, context, readsBody: false) { _, namespace in try await service.listZones(in: namespace) }
        }
        database.post("zones/list") { request, context in
            await handle(request, context, readsBody: false) { _, namespace in try await service.listZones(in: namespace) }
        }
        database.post("zones/lookup") { request, context in
            await handle(request, context) { body, namespace in try await service.lookupZones(body, in: namespace) }
        }
        database.post("zones/modify") { request, context in
            await handle(request, context) { body, namespace in try await service.modifyZones(body, in: namespace) }
        }
        return router
    }

    /// Reads the request, runs the operation, and answers its JSON or its error.
    private func handle(
        _ request: Request, _ context: BasicRequestContext, readsBody: Bool = true,
        _ operation: (JSONValue, Namespace) async throws -> JSONValue
    ) async -> Response {
        let requestID = UUID().uuidString.lowercased()
        do {
            let namespace = try namespace(context.parameters)
            let body = readsBody ? try await Self.body(request, limit: configuration.maximumBodySize) : .object([:])
            let answer = try await operation(body, namespace)
            return Self.response(answer, status: .ok)
        } catch {
            let failure = error as? ServerError ?? ServerError(.internalError, "the server failed to answer")
            logger.log(level: failure.code == .internalError ? .error : .info, "request failed",
                       metadata: ["requestID": "\(requestID)", "path": "\(request.uri.path)", "code": "\(failure.code.rawValue)", "reason": "\(failure.reason)"])
            var members: [String: JSONValue] = [
                "uuid": .string(requestID), "serverErrorCode": .string(failure.code.rawValue), "reason": .string(failure.reason),
            ]
            if let retryAfter = failure.retryAfter { members["retryAfter"] = .integer(Int64(retryAfter)) }
            return Self.response(.object(members), status: failure.code.status)
        }
    }

    /// The namespace a request's path names.
    private func namespace(_ parameters: Parameters) throws(ServerError) -> Namespace {
        let container = parameters.get("container") ?? ""
        if let served = configuration.container, container != served {
            throw ServerError(.notFound, "this server serves the container '\(served)', not '\(container.prefix(80))'")
        }
        guard let environment = parameters.get("environment").flatMap(Namespace.Environment.init(rawValue:)) else {
            throw ServerError(.badRequest, "the environment is 'development' or 'production'")
        }
        switch parameters.get("database") {
        case "public": return Namespace(environment: environment, database: .public)
        case "private": return Namespace(environment: environment, database: .private(user: WireRecord.ownerName))
        case "shared": throw ServerError(.badRequest, "the shared database is not supported by this server")
        default: throw ServerError(.badRequest, "the database is 'public' or 'private'")
        }
    }

    /// A request's body as JSON (an empty body is an empty object).
    private static func body(_ request: Request, limit: Int) async throws(ServerError) -> JSONValue {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw ServerError(.quotaExceeded, "the request body is larger than \(limit) bytes")
        } catch {
            throw ServerError(.badRequest, "the request body could not be read")
        }
        guard buffer.readableBytes > 0 else { return .object([:]) }
        do {
            let value = try JSONDecoder().decode(JSONValue.self, from: Data(buffer.readableBytesView))
            guard case .object = value else { throw ServerError(.badRequest, "the request body is a JSON object, not \(value.kindName)") }
            return value
        } catch let error as ServerError {
            throw error
        } catch {
            throw ServerError(.badRequest, "the request body is not valid JSON")
        }
    }

    /// A JSON response.
    static func response(_ value: JSONValue, status: HTTPResponse.Status) -> Response {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(value)) ?? Data(#"{"serverErrorCode":"INTERNAL_ERROR","reason":"the answer could not be encoded"}"#.utf8)
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
