import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PredicateLanguage
import RecordStore

/// `query serve`: an HTTP server that speaks CloudKit Web Services over a ``Store``.
///
/// Routes, under `/database/1/{container}/{environment}/{database}/`:
/// `POST records/query`, `POST records/lookup`, `POST records/modify`, `GET zones/list`,
/// `POST zones/lookup`, `POST zones/modify`, `POST subscriptions/modify`,
/// `GET subscriptions/list`, `POST subscriptions/lookup`, and this server's extension
/// `GET subscriptions/events` (the subscriptions' notifications as Server-Sent Events,
/// ``NotificationStream``), `POST records/explain`, `GET|POST schema` and
/// `POST predicates/check`; and `GET /health` and `GET /`, the query console
/// (``ConsoleDocument``). Environments are `development` and `production`, databases `public`
/// and `private` (``Namespace``). Bodies are JSON, whatever their content type (CloudKit JS
/// sends `text/plain`). Errors are
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
        /// Who may call; with none, anyone may (start such a server on loopback only).
        public var credentials: ServerCredentials
        /// Requests a second each key or API token may send (0: no limit).
        public var rateLimit: Double
        /// How many requests a key or token may send at once before ``rateLimit`` applies.
        public var rateBurst: Double

        /// A configuration; every value has a default that serves loopback on port 8080.
        ///
        /// ```swift
        /// let configuration = CloudKitServer.Configuration(port: 0, credentials: credentials, rateLimit: 50, rateBurst: 100)
        /// ```
        public init(host: String = "127.0.0.1", port: Int = 8080, container: String? = nil,
                    predicateRules: PredicateRules = .cloudKit, maximumBodySize: Int = 4 << 20,
                    credentials: ServerCredentials = ServerCredentials(), rateLimit: Double = 100, rateBurst: Double = 200) {
            self.host = host
            self.port = port
            self.container = container
            self.predicateRules = predicateRules
            self.maximumBodySize = maximumBodySize
            self.credentials = credentials
            self.rateLimit = rateLimit
            self.rateBurst = rateBurst
        }
    }

    /// The operations the routes call (usable without HTTP).
    public let service: CloudKitService
    /// Where and how the server listens.
    public let configuration: Configuration
    private let authenticator: RequestAuthenticator
    private let limiter: RateLimiter
    private let logger: Logger

    /// A server over a store; nothing listens until ``run(onListening:)``.
    public init(store: Store, configuration: Configuration = Configuration(), logger: Logger = Logger(label: "query.serve")) {
        service = CloudKitService(store: store, predicateRules: configuration.predicateRules)
        self.configuration = configuration
        authenticator = RequestAuthenticator(credentials: configuration.credentials)
        limiter = RateLimiter(rate: configuration.rateLimit, burst: configuration.rateBurst)
        self.logger = logger
    }

    /// Serves until the task is cancelled or the process gets SIGINT or SIGTERM (requests in
    /// flight finish first). `onListening` learns the bound port once the server listens.
    ///
    /// Before listening, the server starts the notifications of every namespace that has
    /// subscriptions, so that it keeps them from its start: a client that resumes an event stream
    /// here (`Last-Event-ID`) after another process served it misses nothing since this one started.
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try await service.startNotifications()
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
        // The query console: one page that calls the routes below like any client.
        let console = ConsoleDocument(configuration: configuration)
        router.get("/") { _, _ in console.response() }
        let database = router.group("database/1/:container/:environment/:database")
        database.post("records/query") { request, context in
            // Written straight into bytes: the one answer that carries up to 200 whole records.
            await handleBytes(request, context) { body, namespace in try await service.queryAnswer(body, in: namespace).jsonBytes() }
        }
        // This server's extensions for the console (and any client): the plan of a query, the
        // schema, and a predicate's check with the position of its syntax error.
        database.post("records/explain") { request, context in
            await handle(request, context) { body, namespace in try await service.explain(body, in: namespace) }
        }
        database.get("schema") { request, context in
            await handle(request, context) { _, namespace in try await service.schema(in: namespace) }
        }
        database.post("schema") { request, context in
            await handle(request, context) { _, namespace in try await service.schema(in: namespace) }
        }
        database.post("predicates/check") { request, context in
            await handle(request, context) { body, namespace in try service.checkPredicate(body, in: namespace) }
        }
        database.post("records/lookup") { request, context in
            await handle(request, context) { body, namespace in try await service.lookup(body, in: namespace) }
        }
        database.post("records/modify") { request, context in
            await handle(request, context, writes: true) { body, namespace in try await service.modify(body, in: namespace) }
        }
        database.get("zones/list") { request, context in
            await handle(request, context) { _, namespace in try await service.listZones(in: namespace) }
        }
        database.post("zones/list") { request, context in
            await handle(request, context) { _, namespace in try await service.listZones(in: namespace) }
        }
        database.post("zones/lookup") { request, context in
            await handle(request, context) { body, namespace in try await service.lookupZones(body, in: namespace) }
        }
        database.post("zones/modify") { request, context in
            await handle(request, context, writes: true) { body, namespace in try await service.modifyZones(body, in: namespace) }
        }
        database.post("subscriptions/modify") { request, context in
            await handle(request, context, writes: true) { body, namespace in try await service.modifySubscriptions(body, in: namespace) }
        }
        database.get("subscriptions/list") { request, context in
            await handle(request, context) { _, namespace in try await service.listSubscriptions(in: namespace) }
        }
        database.post("subscriptions/list") { request, context in
            await handle(request, context) { _, namespace in try await service.listSubscriptions(in: namespace) }
        }
        database.post("subscriptions/lookup") { request, context in
            await handle(request, context) { body, namespace in try await service.lookupSubscriptions(body, in: namespace) }
        }
        database.get("subscriptions/events") { request, context in
            // This server's extension: the namespace's notifications as Server-Sent Events.
            await respond(request, context, writes: false) { _, namespace in
                let lastEventID = request.headers[Self.lastEventIDHeader] ?? request.uri.queryParameters.get("lastEventID").map { String($0) }
                let events = try await service.notifications(in: namespace, after: lastEventID)
                return NotificationStream.response(events, container: context.parameters.get("container") ?? "")
            }
        }
        return router
    }

    /// Reads the request, checks its caller, runs the operation, and answers its JSON or its error.
    private func handle(
        _ request: Request, _ context: BasicRequestContext, writes: Bool = false,
        _ operation: (JSONValue, Namespace) async throws -> JSONValue
    ) async -> Response {
        await handleBytes(request, context, writes: writes) { body, namespace in try await operation(body, namespace).jsonBytes() }
    }

    /// ``handle(_:_:writes:_:)`` for an operation that writes its own JSON bytes.
    private func handleBytes(
        _ request: Request, _ context: BasicRequestContext, writes: Bool = false,
        _ operation: (JSONValue, Namespace) async throws -> [UInt8]
    ) async -> Response {
        await respond(request, context, writes: writes) { raw, namespace in
            let answer = try await operation(try Self.json(raw), namespace)
            return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer)))
        }
    }

    /// Reads the request, checks its caller and its rate, and answers what `answer` makes of its
    /// body and namespace, or CloudKit's error: `{uuid, serverErrorCode, reason}`.
    private func respond(
        _ request: Request, _ context: BasicRequestContext, writes: Bool,
        _ answer: (ByteBuffer, Namespace) async throws -> Response
    ) async -> Response {
        let requestID = UUID().uuidString.lowercased()
        do {
            let raw = try await Self.rawBody(request, limit: configuration.maximumBodySize)
            let caller = try authenticator.caller(
                keyID: request.headers[Self.keyIDHeader], date: request.headers[Self.dateHeader],
                signature: request.headers[Self.signatureHeader], apiToken: request.uri.queryParameters.get("ckAPIToken").map { String($0) },
                subpath: request.uri.path, body: raw.readableBytesView)
            let namespace = try namespace(context.parameters, caller: caller)
            try RequestAuthenticator.check(caller, writes: writes, database: namespace.database)
            switch caller {
            case .anyone: break
            case .key(let keyID): try limiter.admit("key:" + keyID)
            case .apiToken: try limiter.admit("token:" + (request.uri.queryParameters.get("ckAPIToken").map { String($0) } ?? ""))
            }
            let response = try await answer(raw, namespace)
            logger.debug("request answered", metadata: ["requestID": "\(requestID)", "path": "\(request.uri.path)"])
            return response
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

    static let keyIDHeader = HTTPField.Name("X-Apple-CloudKit-Request-KeyID")!
    static let lastEventIDHeader = HTTPField.Name("Last-Event-ID")!
    static let dateHeader = HTTPField.Name("X-Apple-CloudKit-Request-ISO8601Date")!
    static let signatureHeader = HTTPField.Name("X-Apple-CloudKit-Request-SignatureV1")!

    /// The namespace a request's path names.
    private func namespace(_ parameters: Parameters, caller: RequestAuthenticator.Caller) throws(ServerError) -> Namespace {
        let container = parameters.get("container") ?? ""
        if let served = configuration.container, container != served {
            throw ServerError(.notFound, "this server serves the container '\(served)', not '\(container.prefix(80))'")
        }
        guard let environment = parameters.get("environment").flatMap(Namespace.Environment.init(rawValue:)) else {
            throw ServerError(.badRequest, "the environment is 'development' or 'production'")
        }
        switch parameters.get("database") {
        case "public": return Namespace(environment: environment, database: .public)
        case "private":
            // Each key is a user of its own; a server without credentials has one user.
            guard case .key(let keyID) = caller else {
                if caller == .anyone { return Namespace(environment: environment, database: .private(user: WireRecord.ownerName)) }
                throw ServerError(.accessDenied, "the private database needs a server-to-server key")
            }
            return Namespace(environment: environment, database: .private(user: Self.userName(keyID)))
        case "shared": throw ServerError(.badRequest, "the shared database is not supported by this server")
        default: throw ServerError(.badRequest, "the database is 'public' or 'private'")
        }
    }

    /// The user a key stands for in the private database: its key ID, as a zone-name-safe text.
    static func userName(_ keyID: String) -> String {
        String(keyID.unicodeScalars.map { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) ? Character($0) : "_" })
    }

    /// A request's body, at most `limit` bytes.
    private static func rawBody(_ request: Request, limit: Int) async throws(ServerError) -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw ServerError(.quotaExceeded, "the request body is larger than \(limit) bytes")
        } catch {
            throw ServerError(.badRequest, "the request body could not be read")
        }
    }

    /// A request body as JSON (an empty body is an empty object).
    private static func json(_ buffer: ByteBuffer) throws(ServerError) -> JSONValue {
        guard buffer.readableBytes > 0 else { return .object([:]) }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: buffer.readableBytesView)
        } catch {
            throw ServerError(.badRequest, "the request body is not valid JSON: \(error)")
        }
        guard case .object = value else { throw ServerError(.badRequest, "the request body is a JSON object, not \(value.kindName)") }
        return value
    }

    /// A JSON response.
    static func response(_ value: JSONValue, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: value.jsonBytes())))
    }
}
