import PredicateLanguage

/// Where a live query's commits wait until its observer asks for the next change: the feed puts
/// them in as they are committed (never waiting), the observer takes them all at once.
///
/// An observer slower than the commits takes several at once and hears one change set for all
/// of them. The inbox holds at most ``largestBacklog`` changed records; past that it forgets
/// them and remembers only that it lost track, and the observer reads its results again (a
/// `reset`): a stalled observer never holds unbounded memory, and never slows a writer.
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `ChangeSubscriber`,
/// `ChangeFeed`, `NotificationHub` and `SubscriptionFollower`.
package final class ObservationInbox: ChangeSubscriber {
    /// The most changed records kept waiting before the inbox gives up on them.
    package static let largestBacklog = 10_000

    /// What the observer takes.
    package struct Delivery: Sendable {
        package var commits: [CommittedChanges]
        /// Commits were missed: read the results again.
        package var lostTrack: Bool
    }

    private struct State {
        package var commits: [CommittedChanges] = []
        package var backlog = 0
        package var lostTrack = false
        package var waiter: CheckedContinuation<Void, Never>?
        package var cancelled = false

        package mutating func forget() {
            commits = []
            backlog = 0
            lostTrack = true
        }

        package mutating func take() -> Delivery? {
            guard lostTrack || !commits.isEmpty else { return nil }
            defer {
                commits = []
                backlog = 0
                lostTrack = false
            }
            return Delivery(commits: commits, lostTrack: lostTrack)
        }
    }

    package let observedRecordType: String
    package let observedZone: ZoneID
    private let state = LockedState(State())
    /// Signalled on every delivery, for an observer that waits on more than the inbox.
    private let wakeup: Wakeup?
    /// Which commits the inbox takes, when not those of one record type in one zone.
    private let filter: (@Sendable (CommittedChanges) -> Bool)?
    /// The zones of the commits `filter` may take (``ChangeSubscriber/observedZones``).
    private let filterZones: (@Sendable () -> ObservedZones)?
    /// Told of each commit the inbox takes, as it takes it.
    private let taken: (@Sendable (CommittedChanges) -> Void)?
    /// Further record types of the zone whose commits the inbox takes: those a live query's
    /// relationships reach (``observe(alsoRecordTypes:)``).
    private let relatedRecordTypes = LockedState<ReachedRecordTypes?>(nil)
    /// The record types below the observed one (a live query on a type with subtypes), whose
    /// commits the inbox takes too (``observe(subtypes:)``).
    private let subtypes = LockedState<[String]>([])

    /// An inbox for the commits that touch a record type in a zone (a live query's).
    package init(recordType: String, zone: ZoneID, wakeup: Wakeup? = nil) {
        observedRecordType = recordType
        observedZone = zone
        self.wakeup = wakeup
        filter = nil
        filterZones = nil
        taken = nil
    }

    /// An inbox for the commits `filter` wants, in the zones `zones` gives (both called under
    /// the feed's lock: quick, and taking no lock held while calling into the feed). When
    /// `zones` grows, call ``ChangeFeed/observedZonesChanged()`` before reading in them.
    ///
    /// `filter` only answers: a writer may ask it of a commit that then fails. `taken` hears each
    /// commit the inbox takes, when it takes it: under the feed's lock too, in commit order,
    /// before `filter` is asked of the next commit.
    ///
    /// ```swift
    /// let inbox = ObservationInbox(zones: { ObservedZones(prefixes: ["subscriptions/"]) }) { changes in
    ///     changes.entries.contains { $0.recordID.zoneID.zoneName.hasPrefix("subscriptions/") }
    /// }
    /// ```
    package init(
        zones: @escaping @Sendable () -> ObservedZones, filter: @escaping @Sendable (CommittedChanges) -> Bool,
        taken: (@Sendable (CommittedChanges) -> Void)? = nil
    ) {
        observedRecordType = ""
        observedZone = .default
        wakeup = nil
        self.filter = filter
        filterZones = zones
        self.taken = taken
    }

    package var observedZones: ObservedZones {
        filterZones?() ?? ObservedZones(observedZone)
    }

    package func wants(_ changes: CommittedChanges) -> Bool {
        if let filter { return filter(changes) }
        if changes.touches(recordType: observedRecordType, zone: observedZone) { return true }
        let subtypes = subtypes.withLock { $0 }
        if subtypes.contains(where: { changes.touches(recordType: $0, zone: observedZone) }) { return true }
        let related = relatedRecordTypes.withLock { $0 }
        return related?.areTouched(by: changes, zone: observedZone) ?? false
    }

    /// Takes the commits of these record types of the zone too: the types a walking query's
    /// relationships reach. Call it before subscribing.
    package func observe(alsoRecordTypes types: ReachedRecordTypes) {
        relatedRecordTypes.withLock { $0 = types }
    }

    /// Takes the commits of these record types of the zone too: the types below the observed
    /// one. Call it before subscribing.
    package func observe(subtypes types: [String]) {
        subtypes.withLock { $0 = types }
    }

    package func receive(_ changes: CommittedChanges) {
        taken?(changes)
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            if !state.lostTrack {
                state.commits.append(changes)
                state.backlog += max(1, changes.entries.count)
                if state.backlog > Self.largestBacklog { state.forget() }
            }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
        wakeup?.signal()
    }

    package func receiveLostTrack() {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            state.forget()
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
        wakeup?.signal()
    }

    /// Everything waiting, without waiting; nil when nothing is.
    package func takeWaiting() -> Delivery? {
        state.withLock { state in state.take() }
    }

    /// Waits for commits, then takes everything waiting; nil once the task is cancelled.
    package func take() async -> Delivery? {
        while true {
            if Task.isCancelled { return nil }
            if let delivery = takeWaiting() { return delivery }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let resumeNow: Bool = state.withLock { state in
                        if state.cancelled || state.lostTrack || !state.commits.isEmpty { return true }
                        state.waiter = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            } onCancel: {
                let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
                    state.cancelled = true
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume()
            }
        }
    }
}
