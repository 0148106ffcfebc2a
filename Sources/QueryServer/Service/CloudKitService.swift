// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore

/// The CloudKit Web Services operations over a `Store`, apart from HTTP: each takes the
/// request's JSON body and its ``Namespace``, decodes the body into the endpoint's typed request
/// (`RecordsQueryRequest`, `RecordsModifyRequest`, ...; a missing or mistyped member is a
/// `BAD_REQUEST` naming its path and type), and returns the response's JSON, or throws the
/// ``ServerError`` CloudKit would answer. ``CloudKitServer`` routes HTTP requests here; tests
/// and other transports can call it directly.
///
/// ```swift
/// let service = CloudKitService(store: store)
/// let answer = try await service.query(body, in: Namespace(environment: .production, database: .public))
/// ```
public final class CloudKitService: Sendable {
    /// The most records a query returns, and the most operations a modify takes.
    public static let maximumBatch = RequestLimits.maximumBatch

    /// The store as given: the production environment's zones, subscriptions and assets (the
    /// server's bookkeeping, saved in the store's own mode).
    let store: Store
    /// The same engine in production mode: the production environment's records and queries
    /// (`store(for:)`).
    let productionStore: Store
    /// The development environment's store: the sibling `development` of ``store``, with its
    /// own schema and write lock, opened on first use.
    let developmentStore: DevelopmentStore
    /// The rules a `query.predicate` (this server's extension) must follow.
    let predicateRules: PredicateRules
    /// Namespace default zones known to exist (made on first use).
    let createdDefaultZones = LockedZones()
    /// The query subscriptions at work, a hub a namespace (started on first use).
    let notificationHubs = NotificationHubs()
    /// Follows subscriptions saved elsewhere in namespaces without a hub here (once serving).
    let subscriptionFollower = LockedState<[SubscriptionFollower]>([])
    /// How assets are taken and served (``AssetConfiguration``).
    let assetConfiguration: AssetConfiguration
    /// What one query may cost (``QueryLimits``).
    let queryLimits: QueryLimits
    /// When unreferenced uploads were last removed (``CloudKitService/sweepAssetsIfDue(now:)``).
    let lastAssetSweep = LockedState<Date?>(nil)

    /// A service over a store; `predicateRules` checks NSPredicate strings sent as `query.predicate`,
    /// and `queryLimits` bounds what one query may ask for and the work of testing its predicate.
    ///
    /// The `production` environment keeps its records in `store`, in production mode, as
    /// CloudKit's production environment does: a save that brings a new record type or field,
    /// and a query on a field without the index it needs, are refused. Its schema changes only
    /// by a schema applied to `store` (`query schema apply`, `query serve --schema`) or deployed
    /// to it (`query schema deploy`). The `development` environment keeps its records in a store
    /// of its own beside `store` (`Store.openSibling(named:mode:schemaLimits:progress:)`: for
    /// `cities.sqlite`, the file `cities.development.sqlite`), in development mode: its schema
    /// grows as records arrive, and never touches production's. Saves in both are held to
    /// `SchemaLimits.server`.
    ///
    /// ```swift
    /// let service = CloudKitService(store: try Store.open(path: "cities.sqlite"), predicateRules: .full)
    /// ```
    public init(
        store: Store, predicateRules: PredicateRules = .cloudKit, assets: AssetConfiguration = AssetConfiguration(),
        queryLimits: QueryLimits = QueryLimits()
    ) {
        self.store = store
        assetConfiguration = assets
        self.queryLimits = queryLimits
        productionStore = Store(engine: store.engine, mode: .production, schemaLimits: .server)
        developmentStore = DevelopmentStore(beside: store)
        self.predicateRules = predicateRules
    }

    deinit {
        subscriptionFollower.withLock { followers in
            for follower in followers {
                follower.task.cancel()
                follower.feed.unsubscribe(follower.inbox)
            }
        }
    }

    /// The store an environment's records are saved in and queried through: in `production`,
    /// the store's engine in production mode (no schema changes, queries need indexes); in
    /// `development`, the store beside it that keeps the development environment (its schema
    /// grows as records arrive). Both hold saves to `SchemaLimits.server`.
    ///
    /// ```swift
    /// let development = try await service.store(for: .development)
    /// try await development.schema(for: "Note")   // what development saves created
    /// ```
    public func store(for environment: Namespace.Environment) async throws(ServerError) -> Store {
        environment == .production ? productionStore : try await developmentStore.store()
    }

    /// The store a namespace's records are saved in and queried through (its environment's).
    func store(for namespace: Namespace) async throws(ServerError) -> Store {
        try await store(for: namespace.environment)
    }

    /// The store an environment keeps its zones and subscriptions in, written in the store's
    /// own mode: in `production`, the store as given; in `development`, its own store.
    func bookkeepingStore(for environment: Namespace.Environment) async throws(ServerError) -> Store {
        environment == .production ? store : try await developmentStore.store()
    }

    /// The store's zone for the request's `zoneID`, checked to exist (a namespace's default
    /// zone is made on first use).
    func zone(_ zoneID: ZoneIDRequest?, in namespace: Namespace) async throws(ServerError) -> ZoneID {
        let zone = try namespace.storedZone(zoneID?.zoneName ?? ZoneID.default.zoneName)
        if namespace.isDefaultZone(zone), zone != .default, !createdDefaultZones.contains(zone) {
            let store = try await bookkeepingStore(for: namespace.environment)
            try await run { () async throws(RecordStoreError) in try await store.createZone(zone) }
            createdDefaultZones.insert(zone)
        }
        return zone
    }

    /// Runs a store call, its errors answered as CloudKit's.
    func run<T>(_ body: () async throws(RecordStoreError) -> T) async throws(ServerError) -> T {
        try await Self.run(body)
    }

    /// A store call, its errors as the server answers them (``serverError(_:)``), for callers
    /// that hold a store but no service (``UserDirectory``).
    static func run<T>(_ body: () async throws(RecordStoreError) -> T) async throws(ServerError) -> T {
        do {
            return try await body()
        } catch {
            throw serverError(error)
        }
    }

    /// Seconds a client is told to wait while the store's database cannot be reached.
    static let unavailableRetryAfter = 2

    /// A store error as the error CloudKit answers a whole request with. A database that cannot
    /// be reached is `SERVICE_UNAVAILABLE` (503) with `retryAfter`: the client should retry, and
    /// the server recovers by itself when the database is back.
    static func serverError(_ error: RecordStoreError) -> ServerError {
        if case .serverUnavailable = error {
            return ServerError(.serviceUnavailable, "the server's database cannot be reached now; retry after \(unavailableRetryAfter) seconds",
                               retryAfter: unavailableRetryAfter)
        }
        let code: ServerErrorCode = switch error {
        case .zoneNotFound: .zoneNotFound
        case .recordNotFound: .notFound
        case .conflict: .conflict
        // A uniqueness constraint broken (Core Data's constraint merge error) is the request's
        // fault, as a validation failure is: not CONFLICT, which tells CloudKit clients that the
        // change tag is stale and that saving over the server record resolves it.
        case .constraintConflict, .validationFailed: .badRequest
        case .changeTokenExpired: .changeTokenExpired
        case .storage, .indexBuildPending: .internalError
        case .sharing(.shareNotFound), .sharing(.shortGUIDNotFound), .sharing(.rootNotFound), .sharing(.participantNotFound): .notFound
        case .sharing(.notOwner), .sharing(.notInvited): .accessDenied
        // A server over a store opened on a hot standby serves reads only: a write is not
        // permitted there (and retrying it will not help, as it would after an outage).
        case .readOnlyStore: .accessDenied
        default: .badRequest
        }
        return ServerError(code, code == .internalError ? "the server's database failed: \(error)" : "\(error)")
    }
}

/// A set of zones shared across requests.
final class LockedZones: Sendable {
    private let zones = LockedState<Set<ZoneID>>([])
    func contains(_ zone: ZoneID) -> Bool { zones.withLock { $0.contains(zone) } }
    func insert(_ zone: ZoneID) { zones.withLock { _ = $0.insert(zone) } }
    /// Forgets every zone (the development environment was reset).
    func removeAll() { zones.withLock { $0.removeAll() } }
}
#endif
