import Foundation
import RecordStore
import Testing

/// The change sets live queries will report: exact for scripted changes, and for random ones,
/// applying them to the old list gives the new one.
@Suite struct ResultsDifferenceTests {
    typealias Entry = (id: String, version: Int)

    static func difference(_ old: [Entry], _ new: [Entry]) -> ResultsDifference {
        ResultsDifference(old: old, new: new)
    }

    @Test func scriptedChangesAreReportedExactly() {
        let old: [Entry] = [("a", 1), ("b", 1), ("c", 1), ("d", 1), ("e", 1)]
        // b deleted, x inserted first, e moved to second, d updated in place.
        let new: [Entry] = [("x", 1), ("e", 1), ("a", 1), ("c", 1), ("d", 2)]
        let change = Self.difference(old, new)
        #expect(change.deletions == [1])
        #expect(change.insertions == [0])
        #expect(change.moves == [.init(from: 4, to: 1)])
        #expect(change.updates == [.init(from: 3, to: 4)])
        #expect(Self.difference(old, old).isEmpty)
        #expect(Self.difference([], new).insertions == [0, 1, 2, 3, 4])
        #expect(Self.difference(old, []).deletions == [0, 1, 2, 3, 4])
        // A reversal moves all but one.
        #expect(Self.difference(old, old.reversed()).moves.count == 4)
    }

    @Test func recordsAreMatchedByIDAndVersionedByChangeTag() {
        var a = Record(recordType: "T", recordID: RecordID(recordName: "a"))
        let b = Record(recordType: "T", recordID: RecordID(recordName: "b"))
        a.recordChangeTag = "1"
        var changed = a
        changed.recordChangeTag = "2"
        let change = ResultsDifference(old: [a, b], new: [b, changed])
        #expect(change.moves.count == 1)
        #expect(change.updates.isEmpty)
        #expect(ResultsDifference(old: [a, b], new: [changed, b]).updates == [.init(from: 0, to: 0)])
    }

    /// Applies a change set as a table view does: remove deletions and moved-away rows from the
    /// old list, then place insertions and moved rows at their new positions.
    static func apply(_ change: ResultsDifference, old: [Entry], new: [Entry]) -> [String] {
        let removed = Set(change.deletions + change.moves.map(\.from))
        var remaining = old.indices.filter { !removed.contains($0) }.map { old[$0].id }
        let placed = (change.insertions.map { ($0, new[$0].id) } + change.moves.map { ($0.to, old[$0.from].id) }).sorted { $0.0 < $1.0 }
        for (position, id) in placed { remaining.insert(id, at: position) }
        return remaining
    }

    @Test func randomChangesApplyToTheNewList() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let universe = (0..<30).map { "r\($0)" }
            let old = universe.shuffled(using: &generator).prefix(Int.random(in: 0...20, using: &generator)).map { ($0, 1) }
            let new = universe.shuffled(using: &generator).prefix(Int.random(in: 0...20, using: &generator)).map { ($0, Int.random(in: 1...2, using: &generator)) }
            let change = Self.difference(Array(old), Array(new))
            #expect(Self.apply(change, old: Array(old), new: Array(new)) == new.map(\.0))
            // Every kept record is either still in order, moved, or updated: never reported twice.
            let reported = change.moves.map(\.to) + change.updates.map(\.to)
            #expect(Set(reported).count == reported.count)
            #expect(change.updates.allSatisfy { new[$0.to].1 != 1 })
        }
    }
}
