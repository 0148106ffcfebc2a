import Foundation
import PredicateLanguage

/// Receives the commits a ``ChangeFeed`` delivers: a live query's inbox.
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `ChangeFeed`,
/// `ChangeSource` and `ObservationInbox`.
@_spi(StorageEngine) public protocol ChangeSubscriber: AnyObject, Sendable {
    /// The record type the subscriber watches (commits that touch no record of it are not delivered).
    var observedRecordType: String { get }
    /// The zone the subscriber watches.
    var observedZone: ZoneID { get }
    /// A commit that touches the observed record type in the observed zone, with the new
    /// versions of the records it saved. Called in commit order; must return quickly.
    func receive(_ changes: CommittedChanges)
    /// The feed lost track of the commits (a notification connection dropped, a change log pruned
    /// past the feed's place): whatever was observed must be read again.
    func receiveLostTrack()
    /// Whether a commit concerns the subscriber (by default: it touches the observed record type
    /// in the observed zone). Called under the feed's lock: it must be quick and take no lock
    /// that is held while calling into the feed.
    func wants(_ changes: CommittedChanges) -> Bool
    /// The zones whose commits the subscriber needs (by default: the observed zone). Called
    /// under the feed's lock, like ``wants(_:)``. A subscriber whose zones grow calls
    /// ``ChangeFeed/observedZonesChanged()`` before it reads what it observes.
    var observedZones: ObservedZones { get }
}

extension ChangeSubscriber {
    @_spi(StorageEngine) public func wants(_ changes: CommittedChanges) -> Bool {
        changes.touches(recordType: observedRecordType, zone: observedZone)
    }

    @_spi(StorageEngine) public var observedZones: ObservedZones { ObservedZones(observedZone) }
}

/// Where a feed learns of commits made outside its own engine handle: another process on the
/// same SQLite file (``SQLiteChangeLog``), another PostgreSQL client (`LISTEN`).
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `ChangeFeed`,
/// `ChangeSubscriber` and `Wakeup`.
@_spi(StorageEngine) public protocol ChangeSource: Sendable {
    /// Follows commits until the task is cancelled, handing each to
    /// ``ChangeFeed/deliverFromSource(_:recordsRead:)`` in commit order, with its saved records
    /// read (or unread, when no subscriber wants it: ``ChangeFeed/isWanted(_:)``).
    /// Calls ``ChangeFeed/sourceIsFollowing(after:)`` once it follows (then and only then may a
    /// subscriber's first read miss nothing), and ``ChangeFeed/sourceLostTrack()`` when it
    /// missed commits.
    func follow(into feed: ChangeFeed) async
    /// Asks the source to look for new commits now rather than at its next interval.
    func lookNow()
    /// The zones the feed's subscribers observe changed (``ChangeFeed/observedZones``): returns
    /// once the source hears every commit of the zones they observe now, when it follows. A
    /// source that hears every commit anyway (SQLite's change log, the memory engine) returns
    /// at once (the default); PostgreSQL's asks the writers of those zones to notify.
    func observedZonesChanged(in feed: ChangeFeed) async
    /// Whether the source hears only the zones the feed's subscribers observe, so that it acts
    /// on ``observedZonesChanged(in:)`` when they shrink too (false by default; PostgreSQL's
    /// source: true).
    var hearsObservedZonesOnly: Bool { get }
}

extension ChangeSource {
    @_spi(StorageEngine) public func observedZonesChanged(in feed: ChangeFeed) async {}

    @_spi(StorageEngine) public var hearsObservedZonesOnly: Bool { false }
}

/// The commits of one store, delivered to the live queries observing it (``ChangeSubscriber``).
///
/// Each engine handle owns one feed. Commits reach it two ways: the handle's own commits as they
/// happen (``committed(_:)``, with the saved records at hand), and everything else from the
/// engine's ``ChangeSource`` (other handles and processes on a SQLite file, other clients of a
/// PostgreSQL database), which runs only while somebody observes. A commit touching no observed
/// record type in its zone wakes nobody.
///
/// Sequence numbers keep the order when the source's commits are numbered in commit order
/// (SQLite, memory: ``Ordering/consecutive``): a commit is delivered once, and a gap makes the
/// source look at once. PostgreSQL delivers its notifications in commit order already
/// (``Ordering/arrival``).
///
/// ```swift
/// let subscription = try await engine.changeFeed.subscribe(inbox)   // deliveries start
/// let results = try await engine.records(query)                      // nothing missed since
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `ChangeSource`,
/// `ChangeSubscriber`, `ObservationInbox` and `Wakeup`.
@_spi(StorageEngine) public final class ChangeFeed: Sendable {
    /// How the feed orders what it delivers.
    @_spi(StorageEngine) public enum Ordering: Sendable {
        /// Sequence numbers count commits one by one: deliver each once, in order.
        case consecutive
        /// Deliver in the order the source hands them over (already commit order).
        case arrival
    }

    private struct Subscription {
        @_spi(StorageEngine) public weak var subscriber: (any ChangeSubscriber)?
    }

    private struct State {
        @_spi(StorageEngine) public var subscriptions: [ObjectIdentifier: Subscription] = [:]
        /// The sequence of the last commit delivered (consecutive ordering); nil before the source follows.
        @_spi(StorageEngine) public var lastDelivered: Int64?
        @_spi(StorageEngine) public var sourceTask: Task<Void, Never>?
        /// Waiters for the source to follow.
        @_spi(StorageEngine) public var followWaiters: [CheckedContinuation<Void, Never>] = []
        @_spi(StorageEngine) public var isFollowing = false
        /// The sequences delivered lately (arrival ordering), oldest first, for writers waiting
        /// until their commit was heard.
        @_spi(StorageEngine) public var recentlyDelivered: [Int64] = []
        @_spi(StorageEngine) public var recentlyDeliveredSet: Set<Int64> = []
        @_spi(StorageEngine) public var deliveryWaiters: [Int64: Wakeup] = [:]
    }

    /// How many delivered sequences the feed remembers for ``waitForDelivery(of:upTo:)``.
    private static let rememberedDeliveries = 4_096

    private let state = LockedState(State())
    private let source: (any ChangeSource)?
    @_spi(StorageEngine) public let ordering: Ordering
    /// The store identity this feed's engine reaches; other handles on the same store wake it.
    private let storeIdentity: [UInt8]
    /// Why observations of the feed's store cannot start, when they cannot (a PostgreSQL store
    /// opened on a hot standby, where `LISTEN` does not run): ``Store``'s observations throw it
    /// from their first element. Nil for a feed that follows its store's commits.
    @_spi(StorageEngine) public let refusal: RecordStoreError?

    /// A feed for one engine handle.
    ///
    /// - Parameters:
    ///   - storeIdentity: The store's identifier (``StoreSecret/storeIdentifier``).
    ///   - source: Where commits of other handles come from; nil for a store only this handle
    ///     writes (memory).
    ///   - refusal: Why the store cannot be observed, for an engine that cannot hear its commits
    ///     (``refusal``); nil (the default) for one that can.
    @_spi(StorageEngine) public init(
        storeIdentity: [UInt8], source: (any ChangeSource)?, ordering: Ordering, refusal: RecordStoreError? = nil
    ) {
        self.storeIdentity = storeIdentity
        self.source = source
        self.ordering = ordering
        self.refusal = refusal
        if source != nil { ChangeFeedDirectory.register(self, storeIdentity: storeIdentity) }
    }

    deinit {
        state.withLock { $0.sourceTask?.cancel() }
    }

    // MARK: Subscribers

    /// Starts delivering to a subscriber; returns once every later commit of the zones it
    /// observes (``ChangeSubscriber/observedZones``) will reach it.
    @_spi(StorageEngine) public func subscribe(_ subscriber: any ChangeSubscriber) async {
        let startSource: Bool = state.withLock { state in
            state.subscriptions[ObjectIdentifier(subscriber)] = Subscription(subscriber: subscriber)
            return state.sourceTask == nil && source != nil
        }
        guard let source else { return }
        if startSource {
            let task = Task { [weak self] in
                guard let self else { return }
                await source.follow(into: self)
            }
            let stale: Task<Void, Never>? = state.withLock { state in
                if state.sourceTask == nil, !state.subscriptions.isEmpty {
                    state.sourceTask = task
                    return nil
                }
                return task
            }
            stale?.cancel()
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.isFollowing { return true }
                state.followWaiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
        await source.observedZonesChanged(in: self)
    }

    /// A subscriber's zones changed (``ChangeSubscriber/observedZones``): returns once every
    /// later commit of the zones the subscribers observe now will reach them. A subscriber whose
    /// zones grew calls it before reading what it observes in them.
    ///
    /// ```swift
    /// state.withLock { $0.zones.insert(zone.zoneName) }   // read by `observedZones`
    /// await feed.observedZonesChanged()
    /// let members = try await engine.records(query)     // nothing in `zone` missed since
    /// ```
    @_spi(StorageEngine) public func observedZonesChanged() async {
        await source?.observedZonesChanged(in: self)
    }

    /// Whether a commit changed a zone the subscribers observe (``observedZones``), or zones it
    /// could not name: a source that hears only those zones (PostgreSQL's) heard it. A writer
    /// waits for its own commit to come back only then; a subscriber may want a commit of
    /// another zone (a server's hub takes every commit while it loads a new subscription), but
    /// nothing sends it.
    ///
    /// ```swift
    /// if feed.isWanted(changes), feed.observesZones(of: changes) { await feed.waitForDelivery(of: changes.sequence, upTo: .seconds(2)) }
    /// ```
    @_spi(StorageEngine) public func observesZones(of changes: CommittedChanges) -> Bool {
        guard let zones = ObservedZones.changed(by: changes) else { return true }
        let observed = observedZones
        return zones.contains { observed.contains(ZoneID(zoneName: $0)) }
    }

    /// The union of the zones the subscribers observe (``ChangeSubscriber/observedZones``).
    @_spi(StorageEngine) public var observedZones: ObservedZones {
        state.withLock { state in
            state.subscriptions.values.reduce(ObservedZones.none) { zones, subscription in
                guard let subscriber = subscription.subscriber else { return zones }
                return zones.union(subscriber.observedZones)
            }
        }
    }

    /// Stops delivering to a subscriber; the source stops when nobody is left.
    @_spi(StorageEngine) public func unsubscribe(_ subscriber: any ChangeSubscriber) {
        let stopped: Task<Void, Never>? = state.withLock { state in
            state.subscriptions[ObjectIdentifier(subscriber)] = nil
            state.subscriptions = state.subscriptions.filter { $0.value.subscriber != nil }
            guard state.subscriptions.isEmpty, let task = state.sourceTask else { return nil }
            state.sourceTask = nil
            state.isFollowing = false
            state.lastDelivered = nil
            return task
        }
        if let stopped {
            stopped.cancel()
        } else if let source, source.hearsObservedZonesOnly {
            // Fewer zones: the source may ask fewer writers; nobody waits for it.
            Task { [weak self] in
                guard let self else { return }
                await source.observedZonesChanged(in: self)
            }
        }
    }

    /// How many subscribers the feed delivers to.
    @_spi(StorageEngine) public var subscriberCount: Int {
        state.withLock { $0.subscriptions.values.filter { $0.subscriber != nil }.count }
    }

    // MARK: Commits

    /// A commit of this engine handle, with its saved records; the engine calls it right after
    /// the commit (the memory engine, under its lock, so that calls come in commit order).
    @_spi(StorageEngine) public func committed(_ changes: CommittedChanges) {
        guard !changes.isEmpty else { return }
        let gap: Bool = state.withLock { state in
            guard !state.subscriptions.isEmpty else { return false }
            if ordering == .consecutive, source != nil {
                guard let last = state.lastDelivered else { return false }  // the source is starting: it reads this one
                if changes.sequence <= last { return false }
                if changes.sequence != last + 1 { return true }
                state.lastDelivered = changes.sequence
            }
            Self.deliver(changes, to: state.subscriptions)
            return false
        }
        if gap { source?.lookNow() }
        ChangeFeedDirectory.wakeOthers(than: self, storeIdentity: storeIdentity)
    }

    /// Whether the feed wants a commit it is about to read (consecutive ordering: not delivered yet).
    @_spi(StorageEngine) public func wants(sequence: Int64) -> Bool {
        state.withLock { state in
            guard ordering == .consecutive, let last = state.lastDelivered else { return true }
            return sequence > last
        }
    }

    /// The sequence of the last commit delivered; nil while the source does not follow.
    @_spi(StorageEngine) public var lastDeliveredSequence: Int64? { state.withLock { $0.lastDelivered } }

    /// Whether a subscriber wants a commit (``ChangeSubscriber/wants(_:)``, decided on its
    /// entries alone): a source reads a commit's saved records only then, and a writer waits
    /// for its own commit to come back through the source only then.
    ///
    /// ```swift
    /// if feed.isWanted(changes) { changes.savedRecords = try await readRecords(saved) }
    /// ```
    @_spi(StorageEngine) public func isWanted(_ changes: CommittedChanges) -> Bool {
        state.withLock { state in state.subscriptions.values.contains { $0.subscriber?.wants(changes) ?? false } }
    }

    /// A commit the source read, with its saved records; `recordsRead` false when the source
    /// left them unread because no subscriber wanted the commit (``isWanted(_:)``). Returns
    /// whether it was delivered: false only for a commit left unread that a subscriber came to
    /// want meanwhile, which nobody was given; the source then reads its records and delivers
    /// it again, read, so that no subscriber ever receives a commit without its records.
    ///
    /// ```swift
    /// if !feed.deliverFromSource(changes, recordsRead: false) {
    ///     changes.savedRecords = try await readRecords(saved)
    ///     feed.deliverFromSource(changes)
    /// }
    /// ```
    @_spi(StorageEngine) @discardableResult public func deliverFromSource(_ changes: CommittedChanges, recordsRead: Bool = true) -> Bool {
        let (waiter, delivered): (Wakeup?, Bool) = state.withLock { state in
            if !recordsRead, state.subscriptions.values.contains(where: { $0.subscriber?.wants(changes) ?? false }) { return (nil, false) }
            if ordering == .consecutive {
                if let last = state.lastDelivered, changes.sequence <= last { return (nil, true) }
                state.lastDelivered = changes.sequence
            }
            if recordsRead { Self.deliver(changes, to: state.subscriptions) }
            guard ordering == .arrival else { return (nil, true) }
            state.recentlyDelivered.append(changes.sequence)
            state.recentlyDeliveredSet.insert(changes.sequence)
            if state.recentlyDelivered.count > Self.rememberedDeliveries {
                state.recentlyDeliveredSet.remove(state.recentlyDelivered.removeFirst())
            }
            return (state.deliveryWaiters.removeValue(forKey: changes.sequence), true)
        }
        waiter?.signal()
        return delivered
    }

    /// Waits until the source delivered this commit to the subscribers (at most `limit`), when
    /// it follows: a writer whose commits come back through the source (PostgreSQL) calls it
    /// before returning, so that its own observers have heard its write when the write returns
    /// (a context's observation never shows a saved change missing). Returns at once when nobody
    /// observes.
    @_spi(StorageEngine) public func waitForDelivery(of sequence: Int64, upTo limit: Duration) async {
        let wakeup = Wakeup()
        let mustWait: Bool = state.withLock { state in
            guard state.isFollowing, !state.subscriptions.isEmpty, !state.recentlyDeliveredSet.contains(sequence) else { return false }
            state.deliveryWaiters[sequence] = wakeup
            return true
        }
        guard mustWait else { return }
        await wakeup.wait(upTo: limit)
        state.withLock { _ = $0.deliveryWaiters.removeValue(forKey: sequence) }
    }

    /// The source follows: commits after `sequence` (consecutive ordering) will be delivered.
    @_spi(StorageEngine) public func sourceIsFollowing(after sequence: Int64?) {
        let waiters = state.withLock { state in
            if state.lastDelivered == nil { state.lastDelivered = sequence }
            state.isFollowing = true
            defer { state.followWaiters = [] }
            return state.followWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The source missed commits: every subscriber reads again.
    @_spi(StorageEngine) public func sourceLostTrack(resumingAfter sequence: Int64? = nil) {
        let subscribers = state.withLock { state in
            if let sequence { state.lastDelivered = sequence }
            return state.subscriptions.values.compactMap(\.subscriber)
        }
        for subscriber in subscribers { subscriber.receiveLostTrack() }
    }

    /// Asks the source to look for commits now (another handle on the same store committed).
    @_spi(StorageEngine) public func wake() { source?.lookNow() }

    private static func deliver(_ changes: CommittedChanges, to subscriptions: [ObjectIdentifier: Subscription]) {
        for subscription in subscriptions.values {
            guard let subscriber = subscription.subscriber, subscriber.wants(changes) else { continue }
            subscriber.receive(changes)
        }
    }
}

/// The feeds of this process by store, so that a commit through one handle wakes the feeds of
/// the other handles on the same store at once instead of at their next look.
@_spi(StorageEngine) public enum ChangeFeedDirectory {
    private struct WeakFeed {
        @_spi(StorageEngine) public weak var feed: ChangeFeed?
    }

    private static let feeds = LockedState<[[UInt8]: [WeakFeed]]>([:])

    @_spi(StorageEngine) public static func register(_ feed: ChangeFeed, storeIdentity: [UInt8]) {
        feeds.withLock { feeds in
            var list = feeds[storeIdentity, default: []].filter { $0.feed != nil }
            list.append(WeakFeed(feed: feed))
            feeds[storeIdentity] = list
        }
    }

    @_spi(StorageEngine) public static func wakeOthers(than feed: ChangeFeed, storeIdentity: [UInt8]) {
        let others = feeds.withLock { feeds in
            (feeds[storeIdentity] ?? []).compactMap(\.feed).filter { $0 !== feed }
        }
        for other in others { other.wake() }
    }
}
