import EngineTestSupport
import Foundation
import PredicateLanguage
import RecordStore
import Testing

/// Change tokens stay exact while many writers commit at once: readers that follow each zone's
/// changes, and the database's, page after page while the writes go on, end with exactly what
/// the store holds, having seen no change twice and missed none.
struct ConcurrentChangesTests {
    static let zones = (0..<4).map { ZoneID(zoneName: "zone-\($0)") }
    static let writers = 8
    static let commitsPerWriter = 25

    /// What a reader of one zone has applied: each record's change tag, or nil once deleted.
    struct Follower: Sendable {
        let zone: ZoneID
        var token: ChangeToken?
        var tags: [String: String] = [:]
        /// Every (record name, change tag) the reader was given, to find one given twice.
        var seen: Set<String> = []
        var repeated: [String] = []

        /// Reads every page there is now, applying each.
        mutating func catchUp(_ store: Store) async throws {
            repeat {
                let changes = try await store.changes(in: zone, since: token, limit: 7)
                for record in changes.changedRecords {
                    let tag = record.recordChangeTag ?? ""
                    if !seen.insert(record.recordID.recordName + "@" + tag).inserted { repeated.append(record.recordID.recordName + "@" + tag) }
                    tags[record.recordID.recordName] = tag
                }
                for deleted in changes.deletedRecords { tags[deleted.recordID.recordName] = nil }
                token = changes.token
                if !changes.moreComing { break }
            } while true
        }
    }

    /// One writer's commits: three new records a commit into a zone, then an update of one it
    /// made before and a deletion of another, so that saves, updates and deletions interleave.
    static func write(_ writer: Int, into store: Store) async throws {
        var mine: [Record] = []
        for commit in 0..<commitsPerWriter {
            let zone = zones[(writer + commit) % zones.count]
            var saving = (0..<3).map { index in
                Record(recordType: "Note", recordID: RecordID(recordName: "w\(writer)-\(commit)-\(index)", zoneID: zone),
                       fields: ["text": .string("note \(writer) \(commit) \(index)"), "rank": .int(Int64(commit))])
            }
            var deleting: [RecordID] = []
            if mine.count >= 4 {
                var changed = mine.removeFirst()
                changed.fields["rank"] = .int(-1)
                saving.append(changed)
                deleting.append(mine.removeFirst().recordID)
            }
            let result = try await store.modify(saving: saving, deleting: deleting)
            #expect(result.isSuccess, "writer \(writer), commit \(commit): \(result.errors)")
            for record in saving where record.recordID.recordName.hasSuffix("-0") || record.recordID.recordName.hasSuffix("-1") {
                if case .success(let saved)? = result.saveResults[record.recordID] { mine.append(saved) }
            }
        }
    }

    /// Set once the writers are done.
    actor Finished {
        private(set) var value = false
        func set() { value = true }
    }

    /// What the readers ended with: the zones' followers, the database's token, and the zones
    /// the database's changes reported.
    struct Readings: Sendable {
        var followers = ConcurrentChangesTests.zones.map { Follower(zone: $0) }
        var databaseToken: ChangeToken?
        var zonesReported: Set<ZoneID> = []

        mutating func catchUp(_ store: Store) async throws {
            for index in followers.indices { try await followers[index].catchUp(store) }
            var more = true
            while more {
                let database = try await store.databaseChanges(since: databaseToken, limit: 3)
                zonesReported.formUnion(database.changedZones)
                databaseToken = database.token
                more = database.moreComing
            }
        }
    }

    @Test("8 writers and the readers of 4 zones and of the database, at once: every change once, none missed",
          arguments: TestEngine.allCases.filter { $0 != .memory })
    func tokensStayExactUnderConcurrentWriters(_ engine: TestEngine) async throws {
        let store = try engine.makeStore()
        for zone in Self.zones { try await store.createZone(zone) }
        let initial = try await store.databaseChanges().token
        let finished = Finished()
        // Readers page through the changes while the writers write, then once more after.
        let reading = Task {
            var readings = Readings(databaseToken: initial)
            while await !finished.value {
                try await readings.catchUp(store)
                await Task.yield()
            }
            try await readings.catchUp(store)
            return readings
        }
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<Self.writers {
                    group.addTask { try await Self.write(writer, into: store) }
                }
                try await group.waitForAll()
            }
        } catch {
            await finished.set()
            _ = try? await reading.value
            throw error
        }
        await finished.set()
        let readings = try await reading.value

        var total = 0
        for follower in readings.followers {
            let stored = try await store.records(ofType: "Note", matching: FormatPredicate(format: "TRUEPREDICATE"), zone: follower.zone)
            let expected = Dictionary(uniqueKeysWithValues: stored.map { ($0.recordID.recordName, $0.recordChangeTag ?? "") })
            #expect(follower.tags == expected, "\(follower.zone.zoneName): the reader ended with \(follower.tags.count) records, the store holds \(expected.count)")
            #expect(follower.repeated.isEmpty, "\(follower.zone.zoneName): given twice: \(follower.repeated.prefix(5))")
            total += expected.count
        }
        // Each writer made 3 records a commit, and deleted one in each commit after its first two.
        #expect(total == Self.writers * (Self.commitsPerWriter * 3 - (Self.commitsPerWriter - 2)))
        // The database's reader heard of every zone that changed after its first token.
        #expect(readings.zonesReported == Set(Self.zones))
    }
}
