// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore

/// The CloudKit Web Services operations over a ``Store``, apart from HTTP: each takes the
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

    /// The store as given: the development environment's, and the server's own bookkeeping
    /// (zones, subscriptions, notifications).
    let store: Store
    /// The same engine in production mode: the production environment's records and queries
    /// (``store(for:)``).
    let productionStore: Store
    /// The rules a `query.predicate` (this server's extension) must follow.
    let predicateRules: PredicateRules
    /// Namespace default zones known to exist (made on first use).
    private let createdDefaultZones = LockedZones()
    /// The query subscriptions at work, a hub a namespace (started on first use).
    let notificationHubs = NotificationHubs()
    /// Follows subscriptions saved elsewhere in namespaces without a hub here (once serving).
    let subscriptionFollower = LockedState<SubscriptionFollower?>(nil)
    /// How assets are taken and served (``AssetConfiguration``).
    let assetConfiguration: AssetConfiguration
    /// What one query may cost (``QueryLimits``).
    let queryLimits: QueryLimits
    /// When unreferenced uploads were last removed (``CloudKitService/sweepAssetsIfDue(now:)``).
    let lastAssetSweep = LockedState<Date?>(nil)

    /// A service over a store; `predicateRules` checks NSPredicate strings sent as `query.predicate`,
    /// and `queryLimits` bounds what one query may ask for and the work of testing its predicate.
    ///
    /// The `development` environment uses `store` as it is (a store in development mode grows its
    /// schema as records arrive); the `production` environment uses the same engine in
    /// production mode, as CloudKit's production environment does: a save that brings a new
    /// record type or field, and a query on a field without the index it needs, are refused.
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
        productionStore = store.mode == .production ? store : Store(engine: store.engine, mode: .production)
        self.predicateRules = predicateRules
    }

    deinit {
        subscriptionFollower.withLock { follower in
            follower?.task.cancel()
            if let inbox = follower?.inbox { store.engine.changeFeed.unsubscribe(inbox) }
        }
    }

    /// The store a namespace's records are saved and queried through: in `production`, the
    /// engine in production mode (no schema changes, queries need indexes); in `development`,
    /// the store as given.
    func store(for namespace: Namespace) -> Store {
        namespace.environment == .production ? productionStore : store
    }

    /// The store's zone for the request's `zoneID`, checked to exist (a namespace's default
    /// zone is made on first use).
    func zone(_ zoneID: ZoneIDRequest?, in namespace: Namespace) async throws(ServerError) -> ZoneID {
        let zone = try namespace.storedZone(zoneID?.zoneName ?? ZoneID.default.zoneName)
        if namespace.isDefaultZone(zone), zone != .default, !createdDefaultZones.contains(zone) {
            try await run { () async throws(RecordStoreError) in try await store.createZone(zone) }
            createdDefaultZones.insert(zone)
        }
        return zone
    }

    /// Runs a store call, its errors answered as CloudKit's.
    func run<T>(_ body: () async throws(RecordStoreError) -> T) async throws(ServerError) -> T {
        do {
            return try await body()
        } catch {
            throw Self.serverError(error)
        }
    }

    /// A store error as the error CloudKit answers a whole request with.
    static func serverError(_ error: RecordStoreError) -> ServerError {
        let code: ServerErrorCode = switch error {
        case .zoneNotFound: .zoneNotFound
        case .recordNotFound: .notFound
        case .conflict: .conflict
        case .changeTokenExpired: .changeTokenExpired
        case .storage, .serverUnavailable, .indexBuildPending: .internalError
        default: .badRequest
        }
        return ServerError(code, code == .internalError ? "the server's database failed: \(error)" : "\(error)")
    }
}

/// A set of zones shared across requests.
private final class LockedZones: Sendable {
    private let zones = LockedState<Set<ZoneID>>([])
    func contains(_ zone: ZoneID) -> Bool { zones.withLock { $0.contains(zone) } }
    func insert(_ zone: ZoneID) { zones.withLock { _ = $0.insert(zone) } }
}
#endif
