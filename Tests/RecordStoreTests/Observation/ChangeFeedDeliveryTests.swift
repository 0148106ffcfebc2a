import Foundation
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
import Testing

/// What a source's commit costs when nobody wants it, and what a subscriber that arrives while
/// its records go unread receives.
@Suite struct ChangeFeedDeliveryTests {
    /// A subscriber that records what the feed hands it.
    final class Recorder: ChangeSubscriber, @unchecked Sendable {
        let observedRecordType: String
        let observedZone: ZoneID
        private let lock = NSLock()
        private var received: [Int64] = []
        private var lostTrack = 0

        init(recordType: String, zone: ZoneID = .default) {
            observedRecordType = recordType
            observedZone = zone
        }

        func receive(_ changes: CommittedChanges) { lock.withLock { received.append(changes.sequence) } }
        func receiveLostTrack() { lock.withLock { lostTrack += 1 } }
        var log: (received: [Int64], lostTrack: Int) { lock.withLock { (received, lostTrack) } }
    }

    static func commit(_ sequence: Int64, recordType: String) -> CommittedChanges {
        CommittedChanges(sequence: sequence, entries: [.init(kind: .created, recordID: RecordID(recordName: "r\(sequence)"), recordType: recordType)])
    }

    @Test func aCommitIsWantedOnlyByItsRecordTypeInItsZone() async {
        let feed = ChangeFeed(storeIdentity: [1], source: nil, ordering: .arrival)
        #expect(!feed.isWanted(Self.commit(1, recordType: "City")))
        let cities = Recorder(recordType: "City")
        let elsewhere = Recorder(recordType: "City", zone: ZoneID(zoneName: "Other"))
        await feed.subscribe(cities)
        await feed.subscribe(elsewhere)
        #expect(feed.isWanted(Self.commit(2, recordType: "City")))
        #expect(!feed.isWanted(Self.commit(3, recordType: "Airport")))
        feed.unsubscribe(cities)
        #expect(!feed.isWanted(Self.commit(4, recordType: "City")))
        withExtendedLifetime((cities, elsewhere)) {}
    }

    /// A commit left unread is delivered when nobody wants it; one a subscriber came to want
    /// meanwhile is refused (nobody is given it without its records), then delivered read.
    @Test func aCommitLeftUnreadIsRefusedWhenASubscriberCameToWantIt() async {
        let feed = ChangeFeed(storeIdentity: [2], source: nil, ordering: .arrival)
        let airports = Recorder(recordType: "Airport")
        await feed.subscribe(airports)
        #expect(feed.deliverFromSource(Self.commit(6, recordType: "City"), recordsRead: false))
        let cities = Recorder(recordType: "City")
        await feed.subscribe(cities)
        #expect(!feed.deliverFromSource(Self.commit(7, recordType: "City"), recordsRead: false))
        #expect(cities.log.received == [])
        #expect(feed.deliverFromSource(Self.commit(7, recordType: "City")))
        #expect(cities.log.received == [7])
        #expect(cities.log.lostTrack == 0)
        #expect(airports.log.received == [])
    }
}
