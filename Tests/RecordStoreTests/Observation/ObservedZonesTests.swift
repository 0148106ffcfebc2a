import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
import Testing

/// The zones a change subscriber observes, and their union in a feed: what a PostgreSQL
/// listener's row names, so that only the writers of those zones notify.
struct ObservedZonesTests {
    static let cities = ZoneID(zoneName: "Cities")
    static let subscriptions = ObservedZones(prefixes: ["subscriptions/"])

    @Test func zonesAreObservedByNameByPrefixOrAll() {
        let zones = ObservedZones(Self.cities).union(Self.subscriptions)
        #expect(zones.contains(Self.cities))
        #expect(zones.contains(ZoneID(zoneName: "subscriptions/development/_public")))
        #expect(!zones.contains(ZoneID(zoneName: "Airports")))
        #expect(!zones.contains(.default))
        #expect(!ObservedZones.none.contains(.default))
        #expect(ObservedZones.every.contains(ZoneID(zoneName: "anything")))
        #expect(zones.description == "Cities, subscriptions/*")
        #expect(ObservedZones.every.description == "every zone")
        #expect(ObservedZones.none.description == "no zone")
    }

    @Test func coveringDecidesWhetherAListenerMustWriteItsRowAgain() {
        let registered = ObservedZones(Self.cities).union(Self.subscriptions)
        // Fewer zones, or zones under a registered prefix: nothing more to ask writers for.
        #expect(registered.covers(ObservedZones(Self.cities)))
        #expect(registered.covers(ObservedZones(names: ["subscriptions/private/key1/"], prefixes: ["subscriptions/development/"])))
        #expect(registered.covers(.none))
        // Another zone, a wider prefix or every zone: more.
        #expect(!registered.covers(ObservedZones(.default)))
        #expect(!registered.covers(ObservedZones(prefixes: ["sub"])))
        #expect(!registered.covers(.every))
        #expect(ObservedZones.every.covers(registered))
        #expect(registered.union(.every) == .every)
        #expect(!ObservedZones.none.covers(ObservedZones(.default)))
    }

    @Test func aCommitNamesTheZonesItChangedUnlessItChangedThemAll() {
        let listed = CommittedChanges(sequence: 1, entries: [
            .init(kind: .created, recordID: RecordID(recordName: "a", zoneID: Self.cities), recordType: "City"),
            .init(kind: .deleted, recordID: RecordID(recordName: "b"), recordType: "City"),
        ], unlisted: [CommittedChanges.Scope(zone: ZoneID(zoneName: "Gone"))])
        #expect(ObservedZones.changed(by: listed) == ["Cities", ZoneID.default.zoneName, "Gone"])
        // A change of every zone (a schema migration) concerns every listener.
        #expect(ObservedZones.changed(by: CommittedChanges(sequence: 2, unlisted: [.everything])) == nil)
    }

    @Test("A feed observes the union of its subscribers' zones, and says which commits they cover")
    func aFeedObservesItsSubscribersZones() async {
        let feed = ChangeFeed(storeIdentity: [1, 2, 3], source: nil, ordering: .consecutive)
        let cities = ObservationInbox(recordType: "City", zone: Self.cities)
        let follower = ObservationInbox(zones: { Self.subscriptions }) { _ in true }
        await feed.subscribe(cities)
        await feed.subscribe(follower)
        #expect(feed.observedZones == ObservedZones(Self.cities).union(Self.subscriptions))
        func commit(in zone: ZoneID) -> CommittedChanges {
            CommittedChanges(sequence: 1, entries: [.init(kind: .created, recordID: RecordID(recordName: "a", zoneID: zone), recordType: "City")])
        }
        #expect(feed.observesZones(of: commit(in: Self.cities)))
        #expect(feed.observesZones(of: commit(in: ZoneID(zoneName: "subscriptions/_public"))))
        // The follower wants every commit, but a commit of another zone is not sent for it.
        #expect(feed.isWanted(commit(in: .default)))
        #expect(!feed.observesZones(of: commit(in: .default)))
        #expect(feed.observesZones(of: CommittedChanges(sequence: 2, unlisted: [.everything])))
        feed.unsubscribe(cities)
        #expect(feed.observedZones == Self.subscriptions)
        feed.unsubscribe(follower)
        #expect(feed.observedZones == .none)
    }

    @Test("An inbox hears the commits it takes, when it takes them; a writer asking whether a commit is wanted takes nothing")
    func anInboxHearsOnlyTheCommitsItTakes() async {
        let feed = ChangeFeed(storeIdentity: [4, 5, 6], source: nil, ordering: .consecutive)
        let taken = LockedState<[Int64]>([])
        let inbox = ObservationInbox(zones: { Self.subscriptions }) { changes in
            changes.entries.contains { $0.recordID.zoneID.zoneName.hasPrefix("subscriptions/") }
        } taken: { changes in
            taken.withLock { $0.append(changes.sequence) }
        }
        await feed.subscribe(inbox)
        func commit(_ sequence: Int64, in zone: String) -> CommittedChanges {
            CommittedChanges(sequence: sequence, entries: [
                .init(kind: .created, recordID: RecordID(recordName: "s\(sequence)", zoneID: ZoneID(zoneName: zone)), recordType: "Subscription"),
            ])
        }
        // A writer asks before it commits (the commit may still fail): nothing is taken.
        #expect(feed.isWanted(commit(1, in: "subscriptions/_public")))
        #expect(taken.withLock { $0 }.isEmpty)
        feed.committed(commit(1, in: "subscriptions/_public"))
        feed.committed(commit(2, in: "Cities"))
        feed.committed(commit(3, in: "subscriptions/_public"))
        #expect(taken.withLock { $0 } == [1, 3])
        #expect(inbox.takeWaiting()?.commits.map(\.sequence) == [1, 3])
        feed.unsubscribe(inbox)
    }
}
