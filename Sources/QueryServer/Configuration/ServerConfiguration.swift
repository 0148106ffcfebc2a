// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore
import ServiceLifecycle

/// Where and how a ``CloudKitServer`` listens, and whom it answers (`CloudKitServer.Configuration`).
///
/// ```swift
/// let configuration = ServerConfiguration(host: "127.0.0.1", port: 8080)
/// ```
public struct ServerConfiguration: Sendable {
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
    /// Failed authentications a second a client address may make before it is `THROTTLED`
    /// (0: no limit).
    public var failedAuthenticationRate: Double = 1
    /// How many failed authentications a client address may make at once.
    public var failedAuthenticationBurst: Double = 20
    /// The addresses of the reverse proxies in front of the server (`query serve --trusted-proxy`),
    /// as the server sees them (`127.0.0.1`, `::1`): from them, the client's address is read from
    /// `X-Forwarded-For` (`ClientAddressMiddleware`), so that failed authentications count
    /// against the real client and not the proxy that all clients share; their connections are
    /// not capped per address. From any other peer, `X-Forwarded-For` is ignored.
    public var trustedProxies: [String] = []
    /// The most connections one client address may hold; a few more are accepted for `/health`
    /// only (`ClientConnectionLimiter`). Trusted proxies are not capped.
    public var maximumConnectionsPerAddress: Int = 64
    /// The most Server-Sent Event streams (`subscriptions/events`) one caller may hold open at
    /// once; more are `THROTTLED`.
    public var maximumStreamsPerCaller: Int = 8
    /// Whether the server logs one line per request at info level (its ID, method, route,
    /// environment, database, caller, status, duration and records; never a credential or a
    /// record's values), through the server's `Logger`. Off by default for a library; `query
    /// serve` turns it on.
    public var logsRequests = false
    /// Host names a server without credentials answers besides loopback ones (`LocalAccessMiddleware`).
    public var allowedHosts: [String] = []
    /// Web origins (`https://app.example`) whose pages may call the server: a server with
    /// credentials answers their cross-origin requests and preflights (CORS,
    /// `CrossOriginMiddleware`); a server without credentials answers them besides its own origin.
    public var allowedOrigins: [String] = []
    /// The server-to-server keys (by key ID) that the public database's security roles hold like
    /// a signed-in user (their `users/current` name as the user); other keys have full access,
    /// standing for the team's own servers.
    public var keysHeldToSecurityRoles: Set<String> = []
    /// Where a running server reads its ``CallerAccess`` again, on SIGHUP and on
    /// ``CloudKitServer/reloadCallerAccess()``: keys, API tokens, allowed origins and held keys
    /// then change for the next request, and no connection is dropped. Nil (the default): the
    /// access stays as started, and SIGHUP is not trapped. `query serve` reads its `--key` files
    /// and its `--credentials-file` again.
    ///
    /// ```swift
    /// configuration.callerAccessSource = { try CredentialsFile(path: "/etc/query/credentials").callerAccess() }
    /// ```
    public var callerAccessSource: (@Sendable () async throws -> CallerAccess)?
    /// The ``credentials``, ``allowedOrigins`` and ``keysHeldToSecurityRoles`` the server starts with.
    public var callerAccess: CallerAccess {
        get { CallerAccess(credentials: credentials, allowedOrigins: allowedOrigins, keysHeldToSecurityRoles: keysHeldToSecurityRoles) }
        set {
            credentials = newValue.credentials
            allowedOrigins = newValue.allowedOrigins
            keysHeldToSecurityRoles = newValue.keysHeldToSecurityRoles
        }
    }
    /// The administrator token (`query serve --admin-token-file FILE`), or nil for none: a request
    /// sending it as `Authorization: Bearer TOKEN` may use the administration routes (`roles/list`,
    /// `roles/assign`, `roles/remove`), as a server-to-server key with full access may. It is
    /// compared in constant time and never logged; it gives no access to records.
    ///
    /// ```swift
    /// var configuration = ServerConfiguration(port: 8080, credentials: credentials)
    /// configuration.administratorToken = "s3cr3t-admin"   // Authorization: Bearer s3cr3t-admin
    /// ```
    public var administratorToken: String?
    /// Whether each request is a span (Hummingbird's `TracingMiddleware`, with `ckAPIToken` and
    /// `ckWebAuthToken` redacted from the URL) on the tracer `InstrumentationSystem.bootstrap`
    /// installed, the parent of the store operations' spans (`StoreTracing`). `query serve
    /// --otlp-endpoint` turns it on; a library server turns it on after bootstrapping a tracer.
    public var tracesRequests = false
    /// Services run in the server's service group: started with it, and shut down gracefully
    /// with it, after the last request (a trace exporter's, so that it sends its last spans).
    ///
    /// ```swift
    /// let tracing = try OTel.makeTracingBackend()
    /// InstrumentationSystem.bootstrap(tracing.factory)
    /// configuration.tracesRequests = true
    /// configuration.companionServices.append(tracing.service)
    /// ```
    public var companionServices: [any Service] = []
    /// Seconds a new connection has to send its first request's headers.
    public var headerTimeout: Double = 10
    /// Seconds a request has to send its whole body once its headers arrived.
    public var bodyTimeout: Double = 30
    /// Seconds a connection may sit idle between requests before it is closed.
    public var idleTimeout: Double = 60
    /// The most connections served at once; a few more are accepted for `/health` only.
    public var maximumConnections: Int = 1000
    /// The certificate chain and private key to serve HTTPS with, or nil for plain HTTP.
    public var tls: TLSFiles?
    /// A schema in CloudKit's schema language that ``CloudKitServer/run(onListening:)`` applies
    /// to the store before it listens (`query serve --schema FILE`): its record types, fields and
    /// indexes, which the `production` environment needs to save and query records.
    ///
    /// ```swift
    /// var configuration = ServerConfiguration(port: 8080)
    /// configuration.schema = try CloudKitSchemaDocument(parsing: "DEFINE SCHEMA RECORD TYPE Note (title STRING QUERYABLE);")
    /// ```
    public var schema: CloudKitSchemaDocument?
    /// Assets: the largest upload, how long upload and download URLs stay valid, and how long an
    /// upload no record references is kept (``AssetConfiguration``: 50 MiB, one hour, 24 hours).
    public var assets = AssetConfiguration()
    /// What one query may cost: filters, tokens and list values it may send, and the steps and
    /// time testing its predicate on the records may take (``QueryLimits``: 100 filters,
    /// 100 tokens, 1,000 values a list, 10,000,000 steps, 10 seconds).
    public var queryLimits = QueryLimits()
    /// Signed-in users' sessions: how long a web auth token lasts, and how long a replaced one
    /// keeps working (``WebAuthConfiguration``: 30 minutes, two weeks kept signed in, 60 seconds).
    public var webAuth = WebAuthConfiguration()
    /// The OpenID Connect provider users sign in through (``IdentityProviderConfiguration``), or
    /// nil: then the sign-in page says that the operator hands out web auth tokens
    /// (`query users token`).
    public var identityProvider: IdentityProviderConfiguration?
    /// Where `GET /metrics` is served (``MetricsConfiguration``): a port of its own on loopback, the
    /// main port behind a bearer token, or nowhere (the default).
    ///
    /// ```swift
    /// var configuration = ServerConfiguration(port: 8080)
    /// configuration.metrics.port = 9464
    /// ```
    public var metrics = MetricsConfiguration()

    /// A configuration; every value has a default that serves loopback on port 8080.
    ///
    /// ```swift
    /// let configuration = ServerConfiguration(port: 0, credentials: credentials, rateLimit: 50, rateBurst: 100)
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
#endif
