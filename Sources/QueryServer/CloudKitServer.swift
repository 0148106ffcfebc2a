// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import PredicateLanguage
import CoreMetrics
import Prometheus
import RecordStore
import ServiceLifecycle

/// `query serve`: an HTTP server that speaks CloudKit Web Services over a `Store`.
///
/// Routes, under `/database/1/{container}/{environment}/{database}/`:
/// `POST records/query`, `POST records/lookup`, `POST records/modify`, `GET zones/list`,
/// `POST zones/lookup`, `POST zones/modify`, `POST records/changes`, `POST changes/zone`,
/// `POST changes/database`, `POST zones/changes`, `POST subscriptions/modify`,
/// `GET subscriptions/list`, `POST subscriptions/lookup`, and this server's extension
/// `GET subscriptions/events` (the subscriptions' notifications as Server-Sent Events,
/// `NotificationStream`), `POST records/explain`, `GET|POST schema` (JSON, or `.ckdb` text
/// with `?format=ckdb` or `Accept: text/plain`) and `POST predicates/check`, `POST assets/upload`
/// and `GET users/current`; and `GET /health`, `GET /`, the query console (``ConsoleDocument``),
/// and the asset URLs `POST /assets/upload/{token}` and `GET /assets/download/{token}`
/// (`AssetsController`). Each resource's routes are added by its controller
/// (`RouteController`). Environments are `development` and
/// `production`, databases `public` and `private` (``Namespace``); `production` saves and
/// queries through the store in production mode (no new record types or fields, queries need
/// indexes: ``CloudKitService/init(store:predicateRules:assets:queryLimits:)``), and
/// ``ServerConfiguration/schema`` is applied before the server listens. Bodies are JSON,
/// whatever their content type (CloudKit JS sends `text/plain`). Errors are CloudKit's
/// `{uuid, serverErrorCode, reason}` with its HTTP status; `uuid` is the request's ID, also in
/// the server's log line for it.
///
/// ```swift
/// let server = CloudKitServer(store: store, configuration: .init(host: "127.0.0.1", port: 8080))
/// try await server.run()
/// ```
public struct CloudKitServer: Sendable {
    /// Where and how the server listens (``ServerConfiguration``).
    public typealias Configuration = ServerConfiguration

    /// The operations the routes call (usable without HTTP).
    public let service: CloudKitService
    /// Where and how the server listens.
    public let configuration: Configuration
    /// The server's metrics and its stores' (`StoreMetrics`), served as `GET /metrics`
    /// (``MetricsConfiguration``): a registry of this server's own, so that servers in one process
    /// (tests) count apart. `query serve` also bootstraps swift-metrics with it, so that the metrics
    /// of the libraries it uses land there too.
    ///
    /// ```swift
    /// var text: [UInt8] = []
    /// server.metricsRegistry.emit(into: &text)
    /// ```
    public let metricsRegistry: PrometheusCollectorRegistry
    /// The swift-metrics factory over ``metricsRegistry``: what the server records with, and what a
    /// store records with to be served beside it.
    ///
    /// ```swift
    /// otherStore.recordMetrics(StoreMetrics(factory: server.metricsFactory, dimensions: [("store", "archive")]))
    /// ```
    public let metricsFactory: PrometheusMetricsFactory
    /// The request metrics (``RequestMetricsMiddleware``), made by ``metricsRegistry``'s factory.
    let metrics: ServerMetrics
    /// Who may call now: the configuration's ``ServerConfiguration/callerAccess`` until
    /// ``reloadCallerAccess()`` replaces it.
    let callerAccess: CurrentCallerAccess
    private let logger: Logger

    /// A server over a store; nothing listens until ``run(onListening:)``.
    public init(store: Store, configuration: Configuration = Configuration(), logger: Logger = Logger(label: "query.serve")) {
        self.init(store: store, configuration: configuration, logger: logger, telemetryClock: SystemTelemetryClock())
    }

    /// A server whose Telemetry tab (``TelemetryWindow``) reads the time from `telemetryClock`
    /// (a test's clock, which it moves itself).
    init(store: Store, configuration: Configuration, logger: Logger, telemetryClock: any TelemetryClock) {
        service = CloudKitService(
            store: store, predicateRules: configuration.predicateRules, assets: configuration.assets, queryLimits: configuration.queryLimits)
        self.configuration = configuration
        self.logger = logger
        metricsRegistry = PrometheusCollectorRegistry()
        let factory = PrometheusMetricsFactory(registry: metricsRegistry)
        metricsFactory = factory
        metrics = ServerMetrics(factory: factory, telemetryClock: telemetryClock)
        let keyIDs = configuration.credentials.keyIDs
        callerAccess = CurrentCallerAccess(
            configuration.callerAccess, privateUsers: Dictionary(uniqueKeysWithValues: keyIDs.map { ($0, PrivateDatabaseUser.name(keyID: $0)) }),
            administratorToken: configuration.administratorToken)
        if configuration.metrics.isRecording { service.recordStoreMetrics(factory: factory) }
    }

    /// Serves until the task is cancelled or the process gets SIGINT or SIGTERM (requests in
    /// flight finish first). `onListening` learns the bound port once the server listens.
    ///
    /// Before listening, the server applies ``ServerConfiguration/schema`` to the store, if given
    /// (a document the store refuses, such as a field whose type would change, throws its
    /// `SchemaLanguageError` and nothing is served), and starts the notifications of every
    /// namespace that has subscriptions, so that it keeps them from its start: a client that
    /// resumes an event stream here (`Last-Event-ID`) after another process served it misses
    /// nothing since this one started.
    ///
    /// ```swift
    /// try await server.run { port in print("listening on \(port)") }
    /// ```
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try await run(onListening: onListening, onMetricsListening: { _ in })
    }

    /// Serves as ``run(onListening:)`` does, and learns the bound port of the metrics listener
    /// (``MetricsConfiguration/port``) once it listens.
    ///
    /// ```swift
    /// try await server.run(onListening: { port in print("listening on \(port)") },
    ///                      onMetricsListening: { port in print("metrics on \(port)") })
    /// ```
    public func run(onListening: @escaping @Sendable (Int) async -> Void,
                    onMetricsListening: @escaping @Sendable (Int) async -> Void) async throws {
        if let schema = configuration.schema { try await service.applySchema(schema) }  // Both environments (environments apart, #44).
        try await service.startNotifications()
        callerAccess.replace(configuration.callerAccess, privateUsers: try await privateUsers(keyIDs: configuration.credentials.keyIDs))
        let connections = ConnectionCount(cap: configuration.maximumConnections, reserve: Self.healthReserve,
                                          gauge: configuration.metrics.isRecording ? metrics.openConnections : nil)
        let clients = ClientConnectionLimiter(cap: configuration.maximumConnectionsPerAddress, reserve: Self.healthReservePerAddress,
                                              exempt: Set(configuration.trustedProxies))
        let header = Self.timeAmount(configuration.headerTimeout)
        let body = Self.timeAmount(configuration.bodyTimeout)
        let idle = Self.timeAmount(configuration.idleTimeout)
        let http = HTTPServerBuilder.http1(configuration: .init(
            additionalChannelHandlers: [
                clients.handler(), RequestDeadlineHandler(headerTimeout: header, bodyTimeout: body, nextHeadTimeout: idle),
                EventStreamHangUpHandler(),
            ],
            idleTimeout: idle))
        let server = try configuration.tls.map { try HTTPServerBuilder.tls(http, tlsConfiguration: try $0.serverConfiguration()) } ?? http
        let application = Application(
            router: router(connections: connections, clients: clients).router,
            server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "query",
                                 availableConnectionsDelegate: connections.delegate),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
        // Cancelling the task is a graceful shutdown, as SIGTERM is: requests in flight finish
        // and nothing is logged as an error. The group runs in a task of its own, which the
        // cancellation does not reach: a cancelled service group cancels the server's child
        // tasks, and Hummingbird logs that at error level.
        var services: [any Service] = configuration.companionServices + [application]
        if configuration.callerAccessSource != nil { services.append(CallerAccessReloadService(server: self, logger: logger)) }
        if let port = configuration.metrics.port {
            services.append(Application(
                router: MetricsController.metricsRouter(registry: metricsRegistry),
                configuration: .init(address: .hostname(configuration.metrics.host, port: port), serverName: "query"),
                onServerRunning: { channel in await onMetricsListening(channel.localAddress?.port ?? 0) },
                logger: logger))
        }
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        let serving = Task { try await group.run() }
        try await withTaskCancellationHandler {
            try await serving.value
        } onCancel: {
            Task { await group.triggerGracefulShutdown() }
        }
    }

    /// Makes ``metricsRegistry`` the process's swift-metrics backend (`MetricsSystem.bootstrap`), so
    /// that every library's metrics are served beside the server's. Once per process: a program
    /// that runs one server calls it (`query serve` does); tests, which run many, do not.
    ///
    /// ```swift
    /// let server = CloudKitServer(store: store, configuration: configuration)
    /// server.bootstrapMetricsSystem()
    /// ```
    public func bootstrapMetricsSystem() {
        MetricsSystem.bootstrap(metricsFactory)
    }

    /// Seconds as NIO's time amount (whole milliseconds).
    static func timeAmount(_ seconds: Double) -> TimeAmount {
        .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// Connections accepted beyond ``Configuration/maximumConnections`` for `/health` only.
    static let healthReserve = 8

    /// Connections accepted beyond ``Configuration/maximumConnectionsPerAddress`` for `/health` only.
    static let healthReservePerAddress = 2

    /// Reads ``ServerConfiguration/callerAccessSource`` again and answers every request from the
    /// next on with its keys, API tokens, allowed origins and held keys; open connections stay
    /// open. `query serve` does it on SIGHUP. Returns the new access.
    ///
    /// A reload cannot take a server with credentials to none, or give credentials to a server
    /// started without (which listens on loopback and checks hosts instead): that throws
    /// ``ServerCredentialError/reloadChangesOpenness(startedWithCredentials:)``, as a source that
    /// throws does, and the access stays as it was.
    ///
    /// ```swift
    /// let access = try await server.reloadCallerAccess()
    /// print(access.credentials.keyIDs)
    /// ```
    @discardableResult
    public func reloadCallerAccess() async throws -> CallerAccess {
        guard let source = configuration.callerAccessSource else { throw ServerCredentialError.noSourceToReload }
        let access = try await source()
        guard access.credentials.isEmpty == configuration.credentials.isEmpty else {
            throw ServerCredentialError.reloadChangesOpenness(startedWithCredentials: !configuration.credentials.isEmpty)
        }
        callerAccess.replace(access, privateUsers: try await privateUsers(keyIDs: access.credentials.keyIDs))
        return access
    }

    /// The private database user of each key (``PrivateDatabaseUser``).
    private func privateUsers(keyIDs: [String]) async throws(ServerError) -> [String: String] {
        guard keyIDs.contains(where: { PrivateDatabaseUser.name(keyID: $0) != PrivateDatabaseUser.legacyName(keyID: $0) }) else {
            return Dictionary(uniqueKeysWithValues: keyIDs.map { ($0, PrivateDatabaseUser.name(keyID: $0)) })
        }
        let zones = try await service.zonesOfEveryEnvironment()  // Both environments' stores (environments apart, #44).
        return PrivateDatabaseUser.resolve(keyIDs: keyIDs, storedZones: zones)
    }

    /// The server's routes and their middleware, and the table they are listed in.
    ///
    /// The outermost middleware answers every error as CloudKit does and refuses a path that is
    /// not spelt canonically (``CanonicalRequestMiddleware``), so that each route is reached by
    /// one spelling only; each database route declares whether it reads or writes
    /// (``ServerRoutes``), and the authentication of its group enforces that declaration.
    func router(connections: ConnectionCount, clients: ClientConnectionLimiter
    ) -> (router: Router<ServerRequestContext>, table: RouteTable) {
        let router = Router(context: ServerRequestContext.self)
        let table = RouteTable()
        if configuration.metrics.isRecording { router.add(middleware: RequestMetricsMiddleware(metrics: metrics)) }
        if configuration.logsRequests { router.add(middleware: RequestLogMiddleware(logger: logger)) }
        if configuration.tracesRequests {
            router.add(middleware: TracingMiddleware(redactingQueryParameters: ["ckAPIToken", "ckWebAuthToken"]))
        }
        router.add(middleware: ResponseHardeningMiddleware())
        if !configuration.allowedOrigins.isEmpty || configuration.callerAccessSource != nil {
            router.add(middleware: CrossOriginMiddleware(current: callerAccess))
        }
        router.add(middleware: ClientAddressMiddleware(trustedProxies: configuration.trustedProxies))
        router.add(middleware: CloudKitErrorMiddleware(logger: logger, routes: table))
        router.add(middleware: CanonicalRequestMiddleware())
        router.add(middleware: ConnectionCapMiddleware(connections: connections, clients: clients))
        if configuration.credentials.isEmpty {
            router.add(middleware: LocalAccessMiddleware(allowedHosts: configuration.allowedHosts, allowedOrigins: configuration.allowedOrigins,
                                                         scheme: configuration.tls == nil ? "http" : "https"))
        }
        let configuration = self.configuration
        let callerAccess = self.callerAccess
        let limiters = RequestRateLimiters(configuration: configuration)
        let sessions = WebAuthSessions(store: service.store, configuration: configuration.webAuth)
        let routes = ServerRoutes(router: router, table: table) { access in
            AuthenticationMiddleware(configuration: configuration, current: callerAccess, access: access, limiters: limiters, sessions: sessions)
        }
        for controller in controllers() { controller.addRoutes(to: routes) }
        return (router, table)
    }

    /// The routes this server answers, as its router declares them (for tests, and to check
    /// `openapi.yaml` against).
    func declaredRoutes() -> [RouteTable.Entry] {
        router(connections: ConnectionCount(cap: 1, reserve: 0),
               clients: ClientConnectionLimiter(cap: 1, reserve: 0, exempt: [])).table.all
    }

    /// The controllers of every route of the server, one per resource; each database route
    /// declares its access.
    func controllers() -> [any RouteController] {
        let metricsRoute: [any RouteController] = configuration.metrics.bearerToken.map { [MetricsController(registry: metricsRegistry, bearerToken: $0)] } ?? []
        return metricsRoute + [
            HealthController(service: service),
            ConsoleController(configuration: configuration),
            RecordsController(service: service, configuration: configuration),
            SharesController(service: service, configuration: configuration),
            SchemaController(service: service),
            ZonesController(service: service),
            ChangesController(service: service, configuration: configuration),
            SubscriptionsController(service: service, configuration: configuration, metrics: metrics),
            AssetsController(service: service, configuration: configuration),
            UsersController(current: callerAccess, directory: UserDirectory(store: service.store), configuration: configuration),
            RolesController(service: service),
            SchemaAdministrationController(service: service),
            TelemetryController(window: metrics.telemetry, recording: configuration.metrics.isRecording),
            SignInController(configuration: configuration, current: callerAccess, store: service.store),
        ]
    }

}
#endif
