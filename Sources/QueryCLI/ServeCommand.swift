// Part of the Server trait.
#if Server
import ArgumentParser
import Foundation
import Logging
import PredicateLanguage
import QueryServer
import RecordStore

/// `query serve`: the store over CloudKit Web Services' HTTP API.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the store over CloudKit Web Services' HTTP API (records/query, records/lookup, records/modify, zones/*).",
        discussion: """
            Paths: /database/1/CONTAINER/ENVIRONMENT/DATABASE/records/query and so on, with ENVIRONMENT \
            development or production and DATABASE public or private. GET /health answers {"status": "ok"}.
            With --key (server-to-server keys, CloudKit's signed requests) or --api-token (ckAPIToken: \
            the public database to read, and a signed-in user's), every other request is refused; with neither, anyone may call, \
            so the server then listens on loopback only and answers only requests addressed to a \
            loopback name (or an --allowed-host) from no web page but its own console (or an \
            --allowed-origin). With credentials, --allowed-origin lets that origin's pages call the server \
            (CORS). An API token with a signed-in user's ckWebAuthToken (query users token) reads and \
            writes the public database and the user's own private one. With --tls-certificate and \
            --tls-key it speaks HTTPS.
            With --schema FILE.ckdb (CloudKit's schema language, as cktool export-schema writes it) the \
            file's record types, fields and indexes are applied to both environments before serving; a syntax \
            error or a change a store refuses (a field whose type would change) is reported with the \
            file, line and column, and nothing is served. The production environment is the --db store; \
            it saves and queries as CloudKit's does: a new record type or field is refused, and so is a \
            filter or sort on a field that is not QUERYABLE or SORTABLE. The development environment is \
            a store of its own beside it (FILE.development.sqlite beside FILE.sqlite; the schema \
            SCHEMA_development on PostgreSQL) whose schema grows as records arrive, never production's: \
            query schema deploy brings it to production. A request may give a record type at most 200 \
            fields, the store 1,000 record types, and make 100 schema changes. GET .../schema answers \
            the schema as JSON, or as .ckdb text with ?format=ckdb.
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: "The address to listen on (loopback only unless --key or --api-token is given).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port = 8080

    @Option(help: "Serve only this container (default: any container, all sharing the store).")
    var container: String?

    @Option(help: "The rules a query.predicate string follows: cloudkit (CKQuery's language) or full.")
    var rules = "cloudkit"

    @Option(name: .customLong("key"), help: ArgumentHelp("A server-to-server key: KEYID=PATH, PATH a PEM file with its P-256 public (or private) key. Repeatable.", valueName: "KEYID=PEM"))
    var keys: [String] = []

    @Option(name: .customLong("api-token"), help: ArgumentHelp("An API token (ckAPIToken): reads the public database; with a signed-in user (ckWebAuthToken), that user. Repeatable.", valueName: "token"))
    var apiTokens: [String] = []

    @Option(help: "Requests a second each key or token may send, with bursts of twice as many (0: no limit).")
    var rateLimit: Double = 100

    @Option(help: "Failed authentications a second a client address may make, with bursts of 20, before it is throttled (0: no limit).")
    var failedAuthenticationRate: Double = 1

    @Option(name: .customLong("allowed-host"), help: ArgumentHelp("Without credentials: a host name requests may be addressed to besides loopback ones. Repeatable.", valueName: "name"))
    var allowedHosts: [String] = []

    @Option(name: .customLong("credentials-file"), help: ArgumentHelp("A file of keys, API tokens and allowed origins, one a line ('key KEYID=PEM', 'api-token TOKEN', 'allowed-origin URL', 'key-held-to-roles KEYID'), read at start and again on SIGHUP, with the --key files.", valueName: "path"))
    var credentialsFile: String?

    @Option(name: [.customLong("allowed-origin"), .customLong("allow-origin")], help: ArgumentHelp("A web origin (https://app.example) whose pages may call the server (CORS; without credentials, the only other origin answered). Repeatable.", valueName: "origin"))
    var allowedOrigins: [String] = []

    @Option(name: .customLong("key-held-to-roles"), help: ArgumentHelp("A server-to-server key ID that the public database's security roles (GRANTs) hold like a signed-in user, rather than giving it full access. Repeatable.", valueName: "key-id"))
    var keysHeldToRoles: [String] = []

    @Option(name: .customLong("oidc-issuer"), help: ArgumentHelp("The OpenID Connect provider users sign in through (https://login.example.com; its discovery document and keys are fetched over HTTPS).", valueName: "URL"))
    var oidcIssuer: String?

    @Option(name: .customLong("oidc-client-id"), help: ArgumentHelp("The client ID the provider gave this server (its redirect URI: https://SERVER/auth/callback).", valueName: "id"))
    var oidcClientID: String?

    @Option(name: .customLong("oidc-client-secret-file"), help: ArgumentHelp("A file holding the client secret (never on the command line).", valueName: "path"))
    var oidcClientSecretFile: String?

    @Option(name: .customLong("oidc-scope"), help: ArgumentHelp("A scope to ask the provider for besides openid (default: email, profile). Repeatable.", valueName: "scope"))
    var oidcScopes: [String] = []

    @Option(help: "Minutes a signed-in user's session lasts after their last request (\"keep me signed in\": two weeks).")
    var sessionMinutes: Double = 30

    @Option(help: "Seconds a signed-in user's previous web auth token keeps working once the next one was handed out.")
    var tokenGraceSeconds: Double = 60

    @Option(help: "Seconds a new connection has to send its request's headers.")
    var headerTimeout: Double = 10

    @Option(help: "Seconds a request has to send its whole body once its headers arrived.")
    var bodyTimeout: Double = 30

    @Option(help: "Seconds a connection may stay idle between requests.")
    var idleTimeout: Double = 60

    @Option(help: "The most connections served at once (a few more are kept for GET /health).")
    var maxConnections = 1000

    @Option(help: "The most connections one client address may hold (two more are kept for GET /health); trusted proxies are not capped.")
    var maxConnectionsPerAddress = 64

    @Option(help: "The most event streams (subscriptions/events) one caller may hold open.")
    var maxStreamsPerCaller = 8

    @Option(name: .customLong("trusted-proxy"), help: ArgumentHelp("The address of a reverse proxy in front of the server (127.0.0.1): from it, the client's address is read from X-Forwarded-For. Repeatable.", valueName: "address"))
    var trustedProxies: [String] = []

    @Option(help: "The largest request body accepted, in bytes.")
    var maxBodySize = 4 << 20

    @Option(help: "The largest file an asset upload URL takes, in bytes (50 MiB).")
    var maxAssetSize = 50 << 20

    @Option(help: "Hours an uploaded asset that no saved record references is kept.")
    var unreferencedAssetHours: Double = 24

    @Option(help: "Days the change history keeps the tombstones of deleted records and zones; a sync token older than that answers CHANGE_TOKEN_EXPIRED.")
    var historyRetentionDays: Double = 30

    @Option(help: "The most filterBy entries one query may have.")
    var maxQueryFilters = QueryLimits().maximumFilters

    @Option(help: "The most distinct words the token searches (CONTAINS_ALL_TOKENS, CONTAINS_ANY_TOKENS) of one query may ask for.")
    var maxQueryTokens = QueryLimits().maximumTokens

    @Option(help: "The most values one list of a query (IN, LIST_CONTAINS_ANY, ...) may hold.")
    var maxQueryListValues = QueryLimits().maximumListMembers

    @Option(help: "The most evaluation steps (collection members visited by SUBQUERY, ANY, ALL, NONE, @sum...) testing one request's predicate on the records may take.")
    var maxQuerySteps = QueryLimits().maximumEvaluationSteps

    @Option(help: "Seconds testing one request's predicate on the records may take.")
    var queryTimeLimit: Double = 10

    @Option(help: ArgumentHelp("A schema file in CloudKit's schema language (.ckdb) to apply to the store before serving.", valueName: "file.ckdb"))
    var schema: String?

    @Option(help: ArgumentHelp("A PEM file with the certificate chain to serve HTTPS with (needs --tls-key).", valueName: "PEM"))
    var tlsCertificate: String?

    @Option(help: ArgumentHelp("A PEM file with the private key of --tls-certificate.", valueName: "PEM"))
    var tlsKey: String?

    @Option(help: ArgumentHelp("How log lines are written to standard error: text, or json (one JSON object a line).", valueName: "text|json"))
    var logFormat = "text"

    @Option(help: ArgumentHelp("The least severe level logged: trace, debug, info, notice, warning, error or critical.", valueName: "level"))
    var logLevel = "info"

    @Flag(inversion: .prefixedNo, help: "Log one line per request (ID, route, database, caller, status, duration, records; never a credential or a record's values).")
    var logRequests = true

    @Option(help: ArgumentHelp("Serve GET /metrics (Prometheus' text format) on this port of its own, bound on --metrics-host.", valueName: "port"))
    var metricsPort: Int?

    @Option(help: ArgumentHelp("The address the metrics port binds.", valueName: "address"))
    var metricsHost = "127.0.0.1"

    @Option(help: ArgumentHelp("A file holding a token: GET /metrics on the main port then answers with Authorization: Bearer TOKEN.", valueName: "file"))
    var metricsTokenFile: String?

    @Option(help: ArgumentHelp("A file holding the administrator token: the administration routes (roles/list, roles/assign, roles/remove) and the console's Roles view then answer a request with Authorization: Bearer TOKEN.", valueName: "file"))
    var adminTokenFile: String?

    @Option(name: .customLong("otlp-endpoint"), help: ArgumentHelp("Export traces with OTLP/HTTP to this OpenTelemetry collector (http://127.0.0.1:4318): a span per request, store operation and SQL statement. Part of the Tracing trait.", valueName: "URL"))
    var otlpEndpoint: String?

    func validate() throws {
        guard ["text", "json"].contains(logFormat) else { throw ValidationError("--log-format is text or json") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level is one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard !keys.isEmpty || !apiTokens.isEmpty || credentialsFile != nil || Self.isLoopback(host) else {
            throw ValidationError("--host must be a loopback address (127.0.0.1, ::1 or localhost) unless --key, --api-token or --credentials-file is given: without credentials anyone may call")
        }
        guard rateLimit >= 0 else { throw ValidationError("--rate-limit is 0 or more") }
        guard failedAuthenticationRate >= 0 else { throw ValidationError("--failed-authentication-rate is 0 or more") }
        guard headerTimeout > 0, bodyTimeout > 0, idleTimeout > 0 else { throw ValidationError("--header-timeout, --body-timeout and --idle-timeout are more than 0 seconds") }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections is 1 or more") }
        guard maxConnectionsPerAddress >= 1 else { throw ValidationError("--max-connections-per-address is 1 or more") }
        guard maxStreamsPerCaller >= 1 else { throw ValidationError("--max-streams-per-caller is 1 or more") }
        guard maxBodySize >= 1 else { throw ValidationError("--max-body-size is 1 or more") }
        guard maxAssetSize >= 1 else { throw ValidationError("--max-asset-size is 1 or more") }
        guard unreferencedAssetHours > 0 else { throw ValidationError("--unreferenced-asset-hours is more than 0") }
        guard maxQueryFilters >= 1, maxQueryTokens >= 1, maxQueryListValues >= 1, maxQuerySteps >= 1 else {
            throw ValidationError("--max-query-filters, --max-query-tokens, --max-query-list-values and --max-query-steps are 1 or more")
        }
        guard queryTimeLimit > 0, queryTimeLimit <= 86_400 else { throw ValidationError("--query-time-limit is more than 0 seconds (and at most 86400)") }
        guard historyRetentionDays > 0, historyRetentionDays <= 36_500 else { throw ValidationError("--history-retention-days is more than 0 (and at most 36500)") }
        guard (oidcIssuer == nil) == (oidcClientID == nil) else { throw ValidationError("--oidc-issuer and --oidc-client-id go together") }
        if let oidcIssuer, !IdentityProviderConfiguration.isFetchable(oidcIssuer) {
            throw ValidationError("--oidc-issuer is an https URL (http only on a loopback address, for a provider run for tests)")
        }
        guard sessionMinutes > 0, tokenGraceSeconds >= 0 else { throw ValidationError("--session-minutes is more than 0 and --token-grace-seconds 0 or more") }
        guard (tlsCertificate == nil) == (tlsKey == nil) else { throw ValidationError("--tls-certificate and --tls-key go together") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        if let metricsPort, !(0...65535).contains(metricsPort) { throw ValidationError("--metrics-port must be from 0 to 65535") }
        guard ["cloudkit", "full"].contains(rules) else { throw ValidationError("--rules is cloudkit or full") }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        let json = logFormat == "json"
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler = json ? JSONLinesLogHandler(label: label) : StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        // Read and parsed before anything else, so that a bad file starts nothing.
        let schemaFile = try schema.map { path throws(CommandFailure) in try SchemaFile(path: path) }
        let access: CallerAccess
        do {
            access = try callerAccess()
        } catch {
            throw CommandFailure("\(error)")
        }
        let credentials = access.credentials
        guard !credentials.isEmpty || Self.isLoopback(host) else {
            throw CommandFailure("--credentials-file names no key or API token, and --host is not a loopback address: without credentials anyone may call")
        }
        var configuration = CloudKitServer.Configuration(
            host: host, port: port, container: container, predicateRules: rules == "full" ? .full : .cloudKit,
            maximumBodySize: maxBodySize, rateLimit: rateLimit, rateBurst: 2 * rateLimit)
        configuration.callerAccess = access
        configuration.callerAccessSource = { [self] in try callerAccess() }
        configuration.failedAuthenticationRate = failedAuthenticationRate
        configuration.allowedHosts = allowedHosts
        configuration.headerTimeout = headerTimeout
        configuration.bodyTimeout = bodyTimeout
        configuration.idleTimeout = idleTimeout
        configuration.maximumConnections = maxConnections
        configuration.maximumConnectionsPerAddress = maxConnectionsPerAddress
        configuration.maximumStreamsPerCaller = maxStreamsPerCaller
        configuration.trustedProxies = trustedProxies
        configuration.logsRequests = logRequests
        configuration.metrics = MetricsConfiguration(port: metricsPort, host: metricsHost, bearerToken: try metricsToken())
        configuration.administratorToken = try Self.token(file: adminTokenFile, option: "--admin-token-file")
        configuration.schema = schemaFile?.document
        configuration.assets.maximumSize = maxAssetSize
        configuration.assets.unreferencedLifetime = unreferencedAssetHours * 3600
        configuration.webAuth.sessionLifetime = sessionMinutes * 60
        configuration.webAuth.rotationGrace = tokenGraceSeconds
        if let oidcIssuer, let oidcClientID {
            var secret: String?
            if let oidcClientSecretFile {
                do {
                    secret = try String(contentsOfFile: oidcClientSecretFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
                } catch {
                    throw CommandFailure("--oidc-client-secret-file '\(oidcClientSecretFile)' cannot be read: \(error.localizedDescription)")
                }
            }
            configuration.identityProvider = IdentityProviderConfiguration(
                issuer: oidcIssuer, clientID: oidcClientID, clientSecret: secret, scopes: oidcScopes.isEmpty ? ["openid", "email", "profile"] : oidcScopes)
        }
        configuration.queryLimits = QueryLimits(
            maximumFilters: maxQueryFilters, maximumTokens: maxQueryTokens, maximumListMembers: maxQueryListValues,
            maximumEvaluationSteps: maxQuerySteps, evaluationTimeLimit: .milliseconds(Int64((queryTimeLimit * 1000).rounded())))
        if let tlsCertificate, let tlsKey {
            let files = TLSFiles(certificatePath: tlsCertificate, keyPath: tlsKey)
            do {
                try files.check()
            } catch {
                throw CommandFailure(error.description)
            }
            configuration.tls = files
        }
        if let otlpEndpoint {
            #if Tracing
            do {
                try TraceExport.start(endpoint: otlpEndpoint, in: &configuration)
            } catch {
                throw CommandFailure("--otlp-endpoint \(otlpEndpoint): \(error)")
            }
            #else
            throw CommandFailure(
                "--otlp-endpoint is part of the Tracing trait, which this build of query leaves out. "
                    + "Build it in: swift run --traits Tracing query serve ... (or --enable-all-traits)")
            #endif
        }
        let opened = try await store.openStore()
        opened.historyRetention = .seconds(historyRetentionDays * 86_400)
        let server = CloudKitServer(store: opened, configuration: configuration)
        server.bootstrapMetricsSystem()
        let callers = credentials.isEmpty
            ? "no credentials: anyone on this machine may call"
            : "\(credentials.keyIDs.count) key(s), \(credentials.apiTokens.count) API token(s)"
        let scheme = configuration.tls == nil ? "http" : "https"
        do {
            try await server.run { port in
                FileHandle.standardError.write(Data("query serve: listening on \(scheme)://\(host):\(port) (\(callers))\n".utf8))
            } onMetricsListening: { [metricsHost] port in
                FileHandle.standardError.write(Data("query serve: metrics on http://\(metricsHost):\(port)/metrics\n".utf8))
            }
        } catch let error as SchemaLanguageError {
            // Only the schema's application throws this, before the server listens.
            throw schemaFile?.failure(error) ?? CommandFailure(error.description)
        }
    }

    /// Whether a --host value is a loopback address, which a server without credentials must bind.
    static func isLoopback(_ host: String) -> Bool {
        ["127.0.0.1", "::1", "localhost"].contains(host)
    }

    /// Who may call: the --key files (read now), the --api-token, --allowed-origin and
    /// --key-held-to-roles options, and what --credentials-file adds. Read at start and again
    /// on SIGHUP.
    func callerAccess() throws -> CallerAccess {
        var access = CallerAccess(allowedOrigins: allowedOrigins, keysHeldToSecurityRoles: Set(keysHeldToRoles))
        for key in keys { try access.credentials.addKey(key) }
        access.credentials.apiTokens = Set(apiTokens)
        if let credentialsFile { access = try CredentialsFile(path: credentialsFile).callerAccess(adding: access) }
        return access
    }

    /// The token of --metrics-token-file (the file's text without surrounding white space).
    func metricsToken() throws(CommandFailure) -> String? {
        try Self.token(file: metricsTokenFile, option: "--metrics-token-file")
    }

    /// The token a file holds (its text without surrounding white space), or nil without a file;
    /// a file that cannot be read or holds nothing is the failure of `option`. The token itself
    /// is never printed.
    static func token(file: String?, option: String) throws(CommandFailure) -> String? {
        guard let file else { return nil }
        let token: String
        do {
            token = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw CommandFailure("\(option) \(file): \(error.localizedDescription)")
        }
        guard !token.isEmpty else { throw CommandFailure("\(option) \(file) is empty") }
        return token
    }
}
#endif
