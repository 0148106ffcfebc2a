// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore

/// The subscriptions of one namespace at work: it hears every commit of the store that touches
/// a subscribed record type in a subscribed zone, or a watched zone or database (through the
/// store's change feed, so from every process and client), decides which subscriptions fire,
/// keeps the notifications for a retention window, and hands them to the listening Server-Sent
/// Events connections.
///
/// Which query subscriptions fire, for each record a commit changed (in the commit's order, the
/// subscriptions by ID):
/// - created, when the new record matches: `RECORD_CREATED`;
/// - updated, when the record matches after the update, or matched before it:
///   `RECORD_UPDATED`;
/// - deleted, when the record matched: `RECORD_DELETED`.
/// A subscription remembers which records match it (their IDs), so a deletion is known to
/// concern it. A `firesOnce` subscription is deleted after its first notification.
///
/// A zone or database subscription (``ChangeSubscription``) fires once a commit, after the
/// query subscriptions: a zone one when the commit changed its zone, a private database's when
/// it changed any zone of the database. A shared database's fires when the commit changed which
/// zones are shared with the user (it touched the shares' index, and the zones read again
/// differ), or changed a shared zone as `changes/zone` answers it: a record the user's shares
/// reach saved, or any record deleted.
///
/// Notifications are named by the commit's sequence, the record's place in it and the
/// subscription (``QueryNotification/eventID``): every server process over one store names them
/// alike, so a client may resume (`Last-Event-ID`) on any process that was running meanwhile.
/// They are kept ``retention`` (at most ``retainedNotifications``); a resume from an older or
/// unknown event first gets a `reset` event: query again.
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `ChangeFeed`,
/// `ObservationInbox` and `SubscriptionFollower`.
final class NotificationHub: Sendable {
    /// How long notifications are kept for clients that reconnect.
    static let retention: Duration = .seconds(600)
    /// The most notifications kept.
    static let retainedNotifications = 10_000

    /// What a listener receives.
    enum Event: Sendable, Equatable {
        case notification(QueryNotification)
        /// A zone or database subscription fired.
        case change(ChangeNotification)
        /// Notifications may have been missed; the reason says why.
        case reset(String)

        /// The notification's ID (a reset has none).
        var eventID: String? {
            switch self {
            case .notification(let notification): notification.eventID
            case .change(let notification): notification.eventID
            case .reset: nil
            }
        }
    }

    /// Which zones the zone and database subscriptions watch (read by the inbox's filter).
    struct WatchedZones: Sendable {
        /// Zones watched by name: a zone subscription's, or the zones shared with a shared
        /// database's user.
        var zones: Set<ZoneID> = []
        /// Whether every zone of the (private) namespace is watched.
        var wholeNamespace = false
        /// Whether the shares' index is watched (a shared database's, for who shares what).
        var shareIndex = false

        /// Whether a change of this zone concerns them.
        func covers(_ zone: ZoneID, in namespace: Namespace) -> Bool {
            zones.contains(zone) || (wholeNamespace && namespace.clientZoneName(zone) != nil) || (shareIndex && zone == SystemZones.shareIndex)
        }

        /// The zones whose commits they need (``ChangeSubscriber/observedZones``): the whole
        /// namespace is the zones under its prefix (every zone for production's public database,
        /// whose prefix is empty).
        func observedZones(in namespace: Namespace) -> ObservedZones {
            var observed = ObservedZones(names: Set(zones.map(\.zoneName)))
            if shareIndex { observed.names.insert(SystemZones.shareIndex.zoneName) }
            if wholeNamespace { observed = observed.union(namespace.prefix.isEmpty ? .every : ObservedZones(prefixes: [namespace.prefix])) }
            return observed
        }

        /// Whether a commit changed a zone that concerns them. A migration's change of every
        /// zone (``CommittedChanges/Scope/everything``) concerns none: `changes/zone` reports
        /// nothing for it either.
        func covers(_ commit: CommittedChanges, in namespace: Namespace) -> Bool {
            commit.entries.contains { covers($0.recordID.zoneID, in: namespace) }
                || commit.unlisted.contains { $0.isOneZone && covers($0.zone, in: namespace) }
        }
    }

    /// One subscription at work.
    private struct Watch {
        let subscription: QuerySubscription
        let matcher: RecordMatcher
        /// The records that match it now.
        var members: Set<RecordID>
    }

    private struct State {
        var watches: [String: Watch] = [:]
        /// The (record type, zone) pairs the watches need, read by the inbox's filter.
        var scopes: Set<CommittedChanges.Scope> = []
        /// The zone and database subscriptions, by ID.
        var changeWatches: [String: ChangeSubscription] = [:]
        var watchedZones = WatchedZones()
        /// A shared database's zones, as last read (with the shares that open them).
        var sharedZones: [SharedZone] = []
        var retained: [(event: Event, time: ContinuousClock.Instant)] = []
        var listeners: [UUID: AsyncStream<Event>.Continuation] = [:]
        /// The zones the loaded subscriptions need.
        var subscribedZones = ObservedZones.none
        /// The zones of subscriptions this process is saving, by ID, until a reload loads them
        /// (``prepareToWatch(_:)``).
        var preparedZones: [String: ObservedZones] = [:]
        /// The commits of subscriptions the inbox took and the hub has not reloaded after (by
        /// sequence): until it has, the inbox takes every commit, since a new subscription may
        /// want it.
        var unloadedSubscriptionCommits: Set<Int64> = []

        /// The zones whose commits the hub needs: its subscriptions' zone, the loaded
        /// subscriptions', and those being saved.
        func observedZones(subscriptionsZone: ZoneID) -> ObservedZones {
            preparedZones.values.reduce(subscribedZones.union(ObservedZones(subscriptionsZone))) { $0.union($1) }
        }

        /// Keeps notifications and hands them to every listener.
        mutating func send(_ events: [Event]) {
            guard !events.isEmpty else { return }
            let now = ContinuousClock.now
            for event in events {
                retained.append((event, now))
                for listener in listeners.values { listener.yield(event) }
            }
            trim(now: now)
        }

        /// Drops the notifications past the retention window or count.
        mutating func trim(now: ContinuousClock.Instant) {
            let tooOld = retained.prefix { now - $0.time > NotificationHub.retention }.count
            let tooMany = max(0, retained.count - NotificationHub.retainedNotifications)
            let drop = max(tooOld, tooMany)
            if drop > 0 { retained.removeFirst(drop) }
        }
    }

    let namespace: Namespace
    private let service: CloudKitService
    /// The environment's store: its commits are heard, its records read.
    private let store: Store
    private let storage: SubscriptionStorage
    private let state = LockedState(State())
    private let inbox: ObservationInbox
    private let work = LockedState<Task<Void, Never>?>(nil)

    init(namespace: Namespace, service: CloudKitService, store: Store) {
        self.namespace = namespace
        self.service = service
        self.store = store
        storage = SubscriptionStorage(namespace: namespace, service: service)
        let state = self.state
        let subscriptionsZone = storage.zone
        inbox = ObservationInbox(zones: { state.withLock { $0.observedZones(subscriptionsZone: subscriptionsZone) } }) { changes in
            if changes.touches(recordType: SubscriptionStorage.recordType, zone: subscriptionsZone) { return true }
            let (scopes, watchedZones, reloadPending) = state.withLock { ($0.scopes, $0.watchedZones, !$0.unloadedSubscriptionCommits.isEmpty) }
            return reloadPending || scopes.contains { changes.touches(recordType: $0.recordType ?? "", zone: $0.zone) } || watchedZones.covers(changes, in: namespace)
        } taken: { changes in
            // Marked when taken, not when the filter is asked: a writer asks before a commit
            // that may still fail.
            if changes.touches(recordType: SubscriptionStorage.recordType, zone: subscriptionsZone) {
                state.withLock { _ = $0.unloadedSubscriptionCommits.insert(changes.sequence) }
            }
        }
    }

    deinit {
        work.withLock { $0?.cancel() }
        store.engine.changeFeed.unsubscribe(inbox)
    }

    /// Starts hearing commits and loads the subscriptions.
    func start() async throws(ServerError) {
        await store.engine.changeFeed.subscribe(inbox)
        try await reload()
        let task = Task { [weak self] in
            while let self, let delivery = await self.inbox.take() {
                await self.process(delivery)
            }
        }
        work.withLock { $0 = task }
    }

    /// Stops hearing commits and ends every listener's stream (its store was replaced: the
    /// development environment was reset). A client that reconnects gets the new store's hub,
    /// and a `reset` event for an event ID it no longer knows.
    func stop() {
        work.withLock { $0?.cancel() }
        store.engine.changeFeed.unsubscribe(inbox)
        let listeners = state.withLock { state in
            defer { state.listeners.removeAll() }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.finish() }
    }

    // MARK: Listeners

    /// The notifications from now on, after those retained since `lastEventID` (or a reset event
    /// first, when that event is not retained).
    func events(after lastEventID: String?) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(Self.retainedNotifications))
        let id = UUID()
        state.withLock { state in
            state.trim(now: .now)
            if let lastEventID {
                if let index = state.retained.firstIndex(where: { $0.event.eventID == lastEventID }) {
                    for entry in state.retained[(index + 1)...] { continuation.yield(entry.event) }
                } else {
                    continuation.yield(.reset("the event \(lastEventID.prefix(80)) is no longer retained; query again"))
                }
            }
            state.listeners[id] = continuation
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    // MARK: Commits

    private func process(_ delivery: ObservationInbox.Delivery) async {
        if delivery.lostTrack {
            // The reload reads every subscription as it stands.
            state.withLock { $0.unloadedSubscriptionCommits = [] }
            try? await reload()
            broadcast(.reset("the server lost track of the store's commits; query again"))
            return
        }
        for commit in delivery.commits {
            if commit.touches(recordType: SubscriptionStorage.recordType, zone: storage.zone) {
                try? await reload()
                state.withLock { _ = $0.unloadedSubscriptionCommits.remove(commit.sequence) }
            }
            // Zones deleted or changes too many to list: the memberships are read again.
            let unlisted = state.withLock { state in
                state.watches.values.filter { watch in
                    watch.matcher.recordTypes.contains { commit.changesUnlisted(recordType: $0, zone: watch.subscription.zone) }
                }
                .map(\.subscription)
            }
            for subscription in unlisted { try? await refreshMembers(of: subscription) }
            let fired = fire(for: commit)
            for subscription in fired where subscription.firesOnce {
                _ = try? await storage.delete(subscription.subscriptionID)
            }
            await fireChangeSubscriptions(for: commit)
        }
    }

    /// The notifications of one commit (recorded and sent); returns the subscriptions that fired.
    private func fire(for commit: CommittedChanges) -> [QuerySubscription] {
        var notifications: [QueryNotification] = []
        var fired: [QuerySubscription] = []
        state.withLock { state in
            let identifiers = state.watches.keys.sorted()
            for (index, entry) in commit.entries.enumerated() {
                for identifier in identifiers {
                    guard var watch = state.watches[identifier], watch.matcher.touches(entry) else { continue }
                    let wasMember = watch.members.contains(entry.recordID)
                    let record = entry.kind == .deleted ? nil : commit.savedRecords[entry.recordID]
                    var isMember = false
                    if let record { isMember = (try? watch.matcher.matches(record)) ?? false }
                    if isMember { watch.members.insert(entry.recordID) } else { watch.members.remove(entry.recordID) }
                    state.watches[identifier] = watch
                    let reason: QuerySubscription.Reason? = switch entry.kind {
                    case .created: isMember ? .recordCreated : nil
                    case .updated: isMember || wasMember ? .recordUpdated : nil
                    case .deleted: wasMember ? .recordDeleted : nil
                    }
                    guard let reason, watch.subscription.fires(on: reason) else { continue }
                    if watch.subscription.firesOnce, fired.contains(where: { $0.subscriptionID == identifier }) { continue }
                    notifications.append(QueryNotification(
                        eventID: "\(commit.sequence)-\(index)-\(QueryNotification.identifierHash(identifier))",
                        subscriptionID: identifier, recordName: entry.recordID.recordName, recordType: entry.recordType,
                        creatorUserRecordName: record?.creatorUserRecordName, reason: reason, zoneName: namespace.clientZoneName(entry.recordID.zoneID) ?? entry.recordID.zoneID.zoneName, isPublicDatabase: namespace.database == .public))
                    fired.append(watch.subscription)
                }
            }
            state.send(notifications.map(Event.notification))
        }
        return fired
    }

    /// The notifications of the zone and database subscriptions for one commit (recorded and sent).
    private func fireChangeSubscriptions(for commit: CommittedChanges) async {
        let (watches, watchedZones) = state.withLock { ($0.changeWatches, $0.watchedZones) }
        guard !watches.isEmpty, watchedZones.covers(commit, in: namespace) else { return }
        let changedZones = Set(commit.entries.map(\.recordID.zoneID) + commit.unlisted.filter(\.isOneZone).map(\.zone))
        let fires: (ChangeSubscription) -> Bool
        if namespace.sharedDatabaseUser != nil {
            let databaseChanged = await sharedDatabaseChanged(by: commit, changedZones: changedZones)
            fires = { _ in databaseChanged }
        } else {
            let namespace = self.namespace
            fires = { subscription in
                switch subscription.scope {
                case .zone(let zone): changedZones.contains(zone)
                case .database: changedZones.contains { namespace.clientZoneName($0) != nil }
                }
            }
        }
        let scope: ChangeNotification.DatabaseScope = namespace.sharedDatabaseUser != nil ? .shared : .private
        let notifications = watches.keys.sorted().compactMap { identifier -> Event? in
            guard let subscription = watches[identifier], fires(subscription) else { return nil }
            var zoneName: String? = nil
            if case .zone(let zone) = subscription.scope { zoneName = namespace.clientZoneName(zone) ?? zone.zoneName }
            return .change(ChangeNotification(
                eventID: "\(commit.sequence)-\(QueryNotification.identifierHash(identifier))", subscriptionID: identifier, zoneName: zoneName, scope: scope))
        }
        state.withLock { $0.send(notifications) }
    }

    /// Whether a commit changed a shared database as its user sees it: which zones are shared
    /// with them (read again when the commit touched the shares' index), or a shared zone's
    /// records as `changes/zone` answers them (a record they may read saved, any record deleted).
    private func sharedDatabaseChanged(by commit: CommittedChanges, changedZones: Set<ZoneID>) async -> Bool {
        var zones = state.withLock { $0.sharedZones }
        if changedZones.contains(SystemZones.shareIndex), let current = try? await service.sharedZones(in: namespace) {
            func keys(_ zones: [SharedZone]) -> Set<SharedDatabaseToken.Zone> {
                Set(zones.map { SharedDatabaseToken.Zone(owner: $0.ownerRecordName, zoneName: $0.zoneName) })
            }
            let (before, after) = (keys(zones), keys(current))
            zones = current
            let namespace = self.namespace
            state.withLock { state in
                state.sharedZones = current
                state.watchedZones.zones = Set(current.map(\.zone))
                state.subscribedZones = state.subscribedZones.union(state.watchedZones.observedZones(in: namespace))
            }
            await store.engine.changeFeed.observedZonesChanged()
            if before != after { return true }
        }
        for zone in zones where changedZones.contains(zone.zone) {
            if commit.unlisted.contains(where: { $0.isOneZone && $0.zone == zone.zone }) { return true }
            let entries = commit.entries.filter { $0.recordID.zoneID == zone.zone }
            if entries.contains(where: { $0.kind == .deleted }) { return true }
            let permissions = (try? await service.sharePermissions(of: entries.map(\.recordID), in: zone)) ?? [:]
            if !permissions.isEmpty { return true }
        }
        return false
    }

    private func broadcast(_ event: Event) {
        state.withLock { state in
            for listener in state.listeners.values { listener.yield(event) }
        }
    }

    // MARK: Subscriptions

    /// Makes the hub hear the commits a subscription this process is about to save needs, so
    /// that none made after the save is missed while the hub loads it (a zone nobody observed
    /// before is one whose writers do not notify, ``ObservedZones``). The zones are kept until a
    /// reload finds the subscription stored, or ``forgetPrepared(_:)`` when the save failed.
    func prepareToWatch(_ subscription: Subscription) async {
        let zones: ObservedZones
        switch subscription {
        case .query(let query):
            zones = ObservedZones(query.zone)
        case .change(let change):
            switch change.scope {
            case .zone(let zone): zones = ObservedZones(zone)
            case .database:
                // A shared database's zones are those shared with its user, read when it loads.
                zones = namespace.sharedDatabaseUser != nil ? .every : WatchedZones(wholeNamespace: true).observedZones(in: namespace)
            }
        }
        state.withLock { $0.preparedZones[subscription.subscriptionID] = zones }
        await store.engine.changeFeed.observedZonesChanged()
    }

    /// Forgets the zones ``prepareToWatch(_:)`` added for a subscription whose save failed.
    func forgetPrepared(_ subscriptionID: String) {
        state.withLock { _ = $0.preparedZones.removeValue(forKey: subscriptionID) }
        Task { [store] in await store.engine.changeFeed.observedZonesChanged() }
    }

    /// Reads the namespace's subscriptions again: new ones start with their matching records,
    /// changed ones start over, deleted ones stop. The hub hears the commits of their zones
    /// before it reads which records match them.
    private func reload() async throws(ServerError) {
        let subscriptions = try await storage.all()
        var changeWatches: [String: ChangeSubscription] = [:]
        var queries: [QuerySubscription] = []
        for subscription in subscriptions {
            switch subscription {
            case .query(let subscription): queries.append(subscription)
            case .change(let subscription): changeWatches[subscription.subscriptionID] = subscription
            }
        }
        var watchedZones = WatchedZones()
        var sharedZones: [SharedZone] = []
        if !changeWatches.isEmpty, namespace.sharedDatabaseUser != nil {
            sharedZones = try await service.sharedZones(in: namespace)
            watchedZones = WatchedZones(zones: Set(sharedZones.map(\.zone)), shareIndex: true)
        } else {
            for subscription in changeWatches.values {
                switch subscription.scope {
                case .zone(let zone): watchedZones.zones.insert(zone)
                case .database: watchedZones.wholeNamespace = true
                }
            }
        }
        let namespace = self.namespace
        let loaded = Set(subscriptions.map(\.subscriptionID))
        let needed = queries.reduce(watchedZones.observedZones(in: namespace)) { $0.union(ObservedZones($1.zone)) }
        state.withLock { state in
            state.subscribedZones = needed
            state.preparedZones = state.preparedZones.filter { !loaded.contains($0.key) }
        }
        // Returns once the zones now needed are heard (at once when they are fewer).
        await store.engine.changeFeed.observedZonesChanged()
        let current = state.withLock { $0.watches }
        var watches: [String: Watch] = [:]
        for subscription in queries {
            if let watch = current[subscription.subscriptionID], watch.subscription.json == subscription.json {
                watches[subscription.subscriptionID] = watch
            } else {
                watches[subscription.subscriptionID] = try await newWatch(subscription)
            }
        }
        state.withLock { state in
            state.watches = watches
            state.scopes = Set(watches.values.flatMap { watch in
                watch.matcher.recordTypes.map { CommittedChanges.Scope(zone: watch.subscription.zone, recordType: $0) }
            })
            state.changeWatches = changeWatches
            state.watchedZones = watchedZones
            state.sharedZones = sharedZones
        }
    }

    private func refreshMembers(of subscription: QuerySubscription) async throws(ServerError) {
        let watch = try await newWatch(subscription)
        state.withLock { state in
            if state.watches[subscription.subscriptionID]?.subscription.json == subscription.json {
                state.watches[subscription.subscriptionID] = watch
            }
        }
    }

    /// A subscription at work, with the records that match it now. As a `records/query` of it,
    /// it covers the records of the types below its record type too (a Core Data model's
    /// sub-entities), and `entity.name` in its filter is each record's type.
    private func newWatch(_ subscription: QuerySubscription) async throws(ServerError) -> Watch {
        let store = self.store
        let (members, searchable, catalog) = try await service.run { () async throws(RecordStoreError) -> (Set<RecordID>, [String], SchemaCatalog) in
            let catalog = try await store.engine.catalog()
            let searchable = catalog.recordTypes[subscription.recordType]?.searchableFieldNames ?? []
            do throws(RecordStoreError) {
                let records = try await store.records(ofType: subscription.recordType, matching: subscription.predicate, zone: subscription.zone)
                return (Set(records.map(\.recordID)), searchable, catalog)
            } catch .unknownRecordType, .zoneNotFound, .unknownField {
                // Nothing stored can match yet: the development environment takes a subscription
                // on a type, zone or field its schema does not have until a record brings it.
                return ([], searchable, catalog)
            }
        }
        let matcher: RecordMatcher
        do throws(RecordStoreError) {
            matcher = try RecordMatcher(
                recordType: subscription.recordType, predicate: subscription.predicate, zone: subscription.zone, searchableFields: searchable,
                recordTypes: catalog.concreteTypes(of: subscription.recordType, includingSubtypes: true),
                resolvesEntity: EntityKeyPath.isNamed(in: subscription.predicate, schema: catalog.recordTypes[subscription.recordType]))
        } catch {
            throw CloudKitService.serverError(error)
        }
        return Watch(subscription: subscription, matcher: matcher, members: members)
    }
}
#endif
