import EngineTestSupport
import Foundation
import PredicateLanguage
import RecordStore
import Testing

/// Test-only: one live query, iterated by hand, checking every change it yields: applying the
/// change set to the results shown before gives the results it carries, updates name records
/// whose change tag changed, and the sections agree with the results.
final class ObservationProbe {
    private var iterator: RecordObservation.Iterator?
    /// The results of the last change.
    private(set) var shown: [Record] = []
    /// The last change.
    private(set) var last: ResultsChange?

    /// The section key the observation groups by, if any.
    private let sectionKey: String?

    init(_ observation: RecordObservation, sectionKey: String? = nil) {
        iterator = observation.makeAsyncIterator()
        self.sectionKey = sectionKey
    }

    /// The sections of results: each run of equal section key values.
    static func sections(of results: [Record], key: String) -> [ResultsSection] {
        var sections: [ResultsSection] = []
        var start = 0
        for position in results.indices where position + 1 == results.count
            || results[position + 1].value(named: key) != results[position].value(named: key) {
            sections.append(ResultsSection(name: results[position].value(named: key), range: start..<(position + 1)))
            start = position + 1
        }
        return sections
    }

    /// The next change, checked.
    @discardableResult
    func next(sourceLocation: SourceLocation = #_sourceLocation) async throws -> ResultsChange {
        var iterator = try #require(self.iterator, "the probe was finished", sourceLocation: sourceLocation)
        let change = try #require(try await iterator.next(), "the observation ended", sourceLocation: sourceLocation)
        self.iterator = iterator
        let results = change.records.records
        if change.kind != .initial {
            #expect(
                Self.apply(change.difference, old: shown, new: results) == results.map(\.recordID),
                "the change set does not turn the old results into the new", sourceLocation: sourceLocation)
            for update in change.difference.updates {
                #expect(shown[update.from].recordID == results[update.to].recordID, sourceLocation: sourceLocation)
                #expect(shown[update.from].recordChangeTag != results[update.to].recordChangeTag, sourceLocation: sourceLocation)
            }
        }
        if let sectionKey {
            #expect(change.sections == Self.sections(of: results, key: sectionKey), sourceLocation: sourceLocation)
            let sectioned = try #require(change.sectionedDifference, sourceLocation: sourceLocation)
            #expect(sectioned.insertions.count == change.difference.insertions.count, sourceLocation: sourceLocation)
            #expect(sectioned.deletions.count == change.difference.deletions.count, sourceLocation: sourceLocation)
        }
        shown = results
        last = change
        return change
    }

    /// Ends the iteration (as leaving a `for try await` loop does).
    func finish() {
        iterator = nil
    }

    /// Applies a change set as a table view does: removes deletions and moved-away rows, then
    /// places insertions and moved rows at their new positions.
    static func apply(_ change: ResultsDifference, old: [Record], new: [Record]) -> [RecordID] {
        let removed = Set(change.deletions + change.moves.map(\.from))
        var remaining = old.indices.filter { !removed.contains($0) }.map { old[$0].recordID }
        let placed = (change.insertions.map { ($0, new[$0].recordID) } + change.moves.map { ($0.to, old[$0.from].recordID) })
            .sorted { $0.0 < $1.0 }
        for (position, id) in placed where position <= remaining.count { remaining.insert(id, at: position) }
        return remaining
    }
}

/// A city with a name and population, named by its name.
func city(_ name: String, _ population: Int, country: String = "FR") -> Record {
    var record = Record(recordType: "City", recordID: RecordID(recordName: name))
    record["name"] = .string(name)
    record["population"] = .int(Int64(population))
    record["country"] = .string(country)
    return record
}
