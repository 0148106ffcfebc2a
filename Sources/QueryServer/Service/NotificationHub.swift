// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore

/// The query subscriptions of one namespace at work: it hears every commit of the store that
/// touches a subscribed record type in a subscribed zone (through the store's change feed, so
/// from every process and client), decides which subscriptions fire, keeps the notifications
/// for a retention window, and hands them to the listening Server-Sent Events connections.
///
/// Which subscriptions fire, for each record a commit changed (in the commit's order, the
/// subscriptions by ID):
/// - created, when the new record matches: `RECORD_CREATED`;
/// - updated, when the record matches after the update, or matched before it:
///   `RECORD_UPDATED`;
/// - deleted, when the record matched: `RECORD_DELETED`.
/// A subscription remembers which records match it (their IDs), so a deletion is known to
/// concern it. A `firesOnce` subscription is deleted after its first notification.
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
        /// Notifications may have been missed; the reason says why.
        case reset(String)
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
        var retained: [(notification: QueryNotification, time: ContinuousClock.Instant)] = []
        var listeners: [UUID: AsyncStream<Event>.Continuation] = [:]

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
        let subscriptionsScope = CommittedChanges.Scope(zone: storage.zone, recordType: SubscriptionStorage.recordType)
        inbox = ObservationInbox { changes in
            if changes.touches(recordType: SubscriptionStorage.recordType, zone: subscriptionsScope.zone) { return true }
            let scopes = state.withLock { $0.scopes }
            return scopes.contains { changes.touches(recordType: $0.recordType ?? "", zone: $0.zone) }
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

    // MARK: Listeners

    /// The notifications from now on, after those retained since `lastEventID` (or a reset event
    /// first, when that event is not retained).
    func events(after lastEventID: String?) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(Self.retainedNotifications))
        let id = UUID()
        state.withLock { state in
            state.trim(now: .now)
            if let lastEventID {
                if let index = state.retained.firstIndex(where: { $0.notification.eventID == lastEventID }) {
                    for entry in state.retained[(index + 1)...] { continuation.yield(.notification(entry.notification)) }
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
            try? await reload()
            broadcast(.reset("the server lost track of the store's commits; query again"))
            return
        }
        for commit in delivery.commits {
            if commit.touches(recordType: SubscriptionStorage.recordType, zone: storage.zone) { try? await reload() }
            // Zones deleted or changes too many to list: the memberships are read again.
            let unlisted = state.withLock { state in
                state.watches.values.filter { commit.changesUnlisted(recordType: $0.subscription.recordType, zone: $0.subscription.zone) }
                    .map(\.subscription)
            }
            for subscription in unlisted { try? await refreshMembers(of: subscription) }
            let fired = fire(for: commit)
            for subscription in fired where subscription.firesOnce {
                _ = try? await storage.delete(subscription.subscriptionID)
            }
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
                    guard var watch = state.watches[identifier],
                          entry.touches(recordType: watch.subscription.recordType, zone: watch.subscription.zone) else { continue }
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
            let now = ContinuousClock.now
            for notification in notifications {
                state.retained.append((notification, now))
                for listener in state.listeners.values { listener.yield(.notification(notification)) }
            }
            state.trim(now: now)
        }
        return fired
    }

    private func broadcast(_ event: Event) {
        state.withLock { state in
            for listener in state.listeners.values { listener.yield(event) }
        }
    }

    // MARK: Subscriptions

    /// Reads the namespace's subscriptions again: new ones start with their matching records,
    /// changed ones start over, deleted ones stop.
    private func reload() async throws(ServerError) {
        let subscriptions = try await storage.all()
        let current = state.withLock { $0.watches }
        var watches: [String: Watch] = [:]
        for subscription in subscriptions {
            if let watch = current[subscription.subscriptionID], watch.subscription.json == subscription.json {
                watches[subscription.subscriptionID] = watch
            } else {
                watches[subscription.subscriptionID] = try await newWatch(subscription)
            }
        }
        state.withLock { state in
            state.watches = watches
            state.scopes = Set(watches.values.map { CommittedChanges.Scope(zone: $0.subscription.zone, recordType: $0.subscription.recordType) })
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

    /// A subscription at work, with the records that match it now.
    private func newWatch(_ subscription: QuerySubscription) async throws(ServerError) -> Watch {
        let store = self.store
        let (members, searchable) = try await service.run { () async throws(RecordStoreError) -> (Set<RecordID>, [String]) in
            let searchable = try await store.schema(for: subscription.recordType)?.searchableFieldNames ?? []
            do throws(RecordStoreError) {
                let records = try await store.records(ofType: subscription.recordType, matching: subscription.predicate, zone: subscription.zone)
                return (Set(records.map(\.recordID)), searchable)
            } catch .unknownRecordType, .zoneNotFound, .unknownField {
                // Nothing stored can match yet: the development environment takes a subscription
                // on a type, zone or field its schema does not have until a record brings it.
                return ([], searchable)
            }
        }
        let matcher: RecordMatcher
        do throws(RecordStoreError) {
            matcher = try RecordMatcher(
                recordType: subscription.recordType, predicate: subscription.predicate, zone: subscription.zone, searchableFields: searchable)
        } catch {
            throw CloudKitService.serverError(error)
        }
        return Watch(subscription: subscription, matcher: matcher, members: members)
    }
}
#endif
