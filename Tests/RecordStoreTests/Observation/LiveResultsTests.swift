import Foundation
import PredicateLanguage
@testable import RecordStore
@_spi(StorageEngine) @testable import RecordStoreCore
@_spi(StorageEngine) @testable import RecordStoreSQL
@testable import RecordStoreSQLite
import Testing
import TestSupport

/// The incremental results of a live query against the query run again, over many random
/// commits of several records (in every order a dictionary may give them), for every kind of
/// window: the results are always the query's, or the change says the query must run again.
@Suite struct LiveResultsTests {
    @Test func randomCommitsKeepTheResultsOfTheQuery() throws {
        var random = SplitMix64(seed: 0x11FE_0001)
        let predicate = try FormatPredicate(format: "value < 60")
        for trial in 0..<300 {
            let limit: Int? = [nil, 1, 2, 3, 5].randomElement(using: &random)!
            let sorts = [Sort("value", ascending: Bool.random(using: &random))]
            var query = QuerySpecification(recordType: "T", predicate: predicate, sorts: sorts, limit: limit)
            query.mode = .development
            var stored: [RecordID: Record] = [:]
            var version = 0
            func page() -> [Record] {
                RecordOrdering(sorts: sorts).page(
                    of: stored.values.filter { ($0["value"].flatMap { if case .int(let v) = $0 { Int(v) } else { nil } } ?? 100) < 60 },
                    after: nil, offset: 0, limit: limit)
            }
            var live = try LiveResults(query: query, searchableFields: [], records: page())
            for step in 0..<30 {
                var entries: [CommittedChanges.Entry] = []
                var saved: [RecordID: Record] = [:]
                var touched = Set<String>()
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let name = "r\(Int.random(in: 0..<10, using: &random))"
                    guard touched.insert(name).inserted else { continue }
                    let id = RecordID(recordName: name)
                    if stored[id] != nil, Int.random(in: 0..<4, using: &random) == 0 {
                        stored[id] = nil
                        entries.append(.init(kind: .deleted, recordID: id, recordType: "T"))
                    } else {
                        version += 1
                        var record = Record(recordType: "T", recordID: id, fields: ["value": .int(Int64(Int.random(in: 0..<100, using: &random)))])
                        record.recordChangeTag = "v\(version)"
                        entries.append(.init(kind: stored[id] == nil ? .created : .updated, recordID: id, recordType: "T"))
                        stored[id] = record
                        saved[id] = record
                    }
                }
                let shown = live.results.records
                let commit = CommittedChanges(sequence: Int64(step), entries: entries, savedRecords: saved)
                let expected = page()
                switch live.apply(try live.relevantChanges(of: [commit])) {
                case .needsRead:
                    live.replace(with: expected)
                case .unchanged:
                    #expect(shown.map(\.recordID) == expected.map(\.recordID), "trial \(trial) step \(step)")
                case .changed(let difference):
                    #expect(live.results.records == expected, "trial \(trial) step \(step), limit \(String(describing: limit))")
                    let removed = Set(difference.deletions + difference.moves.map(\.from))
                    var ids = shown.indices.filter { !removed.contains($0) }.map { shown[$0].recordID }
                    let placed = (difference.insertions.map { ($0, expected[$0].recordID) } + difference.moves.map { ($0.to, shown[$0.from].recordID) })
                        .sorted { $0.0 < $1.0 }
                    for (position, id) in placed where position <= ids.count { ids.insert(id, at: position) }
                    #expect(ids == expected.map(\.recordID), "trial \(trial) step \(step): the change set does not give the new results")
                }
                #expect(live.results.records == expected || live.results.records == shown)
                if live.results.records != expected { live.replace(with: expected) }
            }
        }
    }
}
