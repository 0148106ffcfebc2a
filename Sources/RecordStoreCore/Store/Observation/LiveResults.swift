import PredicateLanguage

/// The results of a live query kept up to date from the records that changed, without running
/// the query again: each changed record is tested against the predicate with the evaluator
/// (which answers as every engine does) and put in, taken out of, or moved within the sorted
/// results by binary search: O(k log n) for k changed records among n results.
///
/// A limited query keeps its window (the first `limit` results): a record that sorts past the
/// window's end stays out, and the window drops its last records when new ones come before
/// them. Only when the window loses records and more matches may exist outside it (or the
/// query skips an offset) must the query run again: ``apply(_:)`` then says ``Outcome/needsRead``.
///
/// ```swift
/// var live = try LiveResults(query: specification, searchableFields: [], records: firstRead)
/// switch live.apply(try live.relevantChanges(of: commits)) {
/// case .changed(let difference): redraw(live.results, difference)
/// case .unchanged: break
/// case .needsRead: live.replace(with: try await engine.records(specification))
/// }
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `LiveQuery`,
/// `RecordObservation` and `ObservedResults`.
package struct LiveResults {
    /// What applying changes did.
    package enum Outcome {
        /// Nothing observed changed.
        case unchanged
        /// The results changed so.
        case changed(ResultsDifference)
        /// The change cannot be decided from the changed records alone: read the query again.
        case needsRead
    }

    package let query: QuerySpecification
    package let ordering: RecordOrdering
    private let matcher: RecordMatcher
    /// The results in order.
    private(set) var results: ObservedResults
    /// The version of each record in the results.
    private var members: [RecordID: Record]
    /// Whether the results hold every match (no limit, or fewer matches than the limit).
    private var holdsEveryMatch: Bool

    /// Live results starting from a first read of the query (its limit applied, no offset).
    /// `recordTypes` are the types whose records may match (a type with subtypes: all of its
    /// concrete types); `resolvesEntity` says that the predicate's `entity` key path is each
    /// record's type (``EntityKeyPath``).
    package init(
        query: QuerySpecification, searchableFields: [String], records: [Record], recordTypes: [String]? = nil, resolvesEntity: Bool = false
    ) throws(RecordStoreError) {
        self.query = query
        ordering = RecordOrdering(sorts: query.sorts)
        matcher = try RecordMatcher(
            recordType: query.recordType, predicate: query.predicate, zone: query.zone, searchableFields: searchableFields,
            recordTypes: recordTypes, resolvesEntity: resolvesEntity)
        results = ObservedResults()
        members = [:]
        holdsEveryMatch = true
        replace(with: records)
    }

    /// Takes a new read of the query as the results.
    package mutating func replace(with records: [Record]) {
        results = ObservedResults(records)
        members = Dictionary(records.map { ($0.recordID, $0) }, uniquingKeysWith: { first, _ in first })
        holdsEveryMatch = query.limit.map { records.count < $0 } ?? true
    }


    /// The changes of commits that can matter to the results, each changed record once with its
    /// newest version when that version matches, or nil when it does not (or was deleted): the
    /// records that are in the results, were already changed by an earlier commit of the list,
    /// or now match. Records that neither were nor are in the results are left out, so an
    /// observer of a few records pays little for a commit of many (the matching itself is shared
    /// with the other observers of the condition, ``CommitEvaluations``).
    package func relevantChanges(of commits: [CommittedChanges]) throws(RecordStoreError) -> [RecordID: Record?] {
        var changed: [RecordID: Record?] = [:]
        for commit in commits {
            let matches = try commit.evaluations.matches(of: commit, by: matcher)
            for (index, entry) in commit.entries.enumerated() where matcher.touches(entry) {
                let id = entry.recordID
                if matches[index] {
                    changed.updateValue(commit.savedRecords[id], forKey: id)
                } else if members[id] != nil || changed[id] != nil {
                    changed.updateValue(nil, forKey: id)
                }
            }
        }
        return changed
    }

    /// Applies the net changes of one or more commits (``relevantChanges(of:)``): each changed
    /// record with its newest version when it matches, or nil when it does not or is gone.
    package mutating func apply(_ changed: [RecordID: Record?]) -> Outcome {
        // The records that leave (their old versions) and arrive (their new versions).
        var leaving: [Record] = []
        var arriving: [Record] = []
        for (id, new) in changed {
            let old = members[id]
            switch (old, new) {
            case (nil, nil):
                continue
            case (let old?, let new?) where old.recordChangeTag == new.recordChangeTag && old.recordChangeTag != nil:
                continue  // the version already shown
            default:
                if let old { leaving.append(old) }
                if let new { arriving.append(new) }
            }
        }
        guard !leaving.isEmpty || !arriving.isEmpty else { return .unchanged }
        if query.offset > 0 { return .needsRead }

        let before = results
        // Matches outside a window that let some go all sort after its last record: a record
        // arriving after that is outside too (and if the window now has room, it is read again).
        let windowEnd = holdsEveryMatch ? nil : before.last
        var oldPositions: [RecordID: Int] = [:]
        for record in leaving { oldPositions[record.recordID] = before.insertionPosition(of: record, ordering: ordering) }
        for position in oldPositions.values.sorted(by: >) { results.remove(at: position) }
        for record in leaving { members[record.recordID] = nil }
        for record in arriving {
            if let windowEnd, !ordering.precedes(record, windowEnd) { continue }
            let position = results.insertionPosition(of: record, ordering: ordering)
            if let limit = query.limit, position >= limit {
                holdsEveryMatch = false  // a match outside the window now
                continue
            }
            results.insert(record, at: position)
            members[record.recordID] = record
        }
        // The window's records pushed past its end.
        var droppedFromEnd: [Record] = []
        if let limit = query.limit, results.count > limit {
            for position in limit..<results.count { droppedFromEnd.append(results[position]) }
            results.removeTail(from: limit)
            for record in droppedFromEnd { members[record.recordID] = nil }
            holdsEveryMatch = false
        }
        if let limit = query.limit, results.count < limit, !holdsEveryMatch {
            return .needsRead  // matches outside the window may now belong in it
        }

        var newPositions: [RecordID: Int] = [:]
        for record in arriving where members[record.recordID] != nil {
            newPositions[record.recordID] = results.insertionPosition(of: record, ordering: ordering)
        }
        let arrivingIDs = Set(arriving.map(\.recordID))
        for record in droppedFromEnd where oldPositions[record.recordID] == nil && !arrivingIDs.contains(record.recordID) {
            // An untouched record the window let go: it leaves from where it was.
            oldPositions[record.recordID] = before.insertionPosition(of: record, ordering: ordering)
        }
        return .changed(Self.difference(oldPositions: oldPositions, newPositions: newPositions))
    }

    /// The change set from the old positions of the records that left or changed and the new
    /// positions of those that arrived or changed (every other record kept its relative order).
    ///
    /// A record in both is updated in place when its place among the untouched records and the
    /// other records in both is kept (a longest increasing run of new positions, as in
    /// ``ResultsDifference``); otherwise it moved.
    private static func difference(oldPositions: [RecordID: Int], newPositions: [RecordID: Int]) -> ResultsDifference {
        let sortedOld = oldPositions.values.sorted()
        let sortedNew = newPositions.values.sorted()
        var deletions: [Int] = []
        var insertions: [Int] = []
        // The records in both, in old order, with their positions and their rank among the untouched.
        var kept: [(old: Int, new: Int)] = []
        for (id, old) in oldPositions {
            if let new = newPositions[id] { kept.append((old, new)) } else { deletions.append(old) }
        }
        for (id, new) in newPositions where oldPositions[id] == nil { insertions.append(new) }
        kept.sort { $0.old < $1.old }
        var moves: [ResultsDifference.Move] = []
        var updates: [ResultsDifference.Move] = []
        // The untouched records before a position: the same count before and after means the
        // record kept its place among them.
        var inPlace: [Int] = []
        for (index, pair) in kept.enumerated() {
            let untouchedBeforeOld = pair.old - sortedOld.lowerBound(of: pair.old)
            let untouchedBeforeNew = pair.new - sortedNew.lowerBound(of: pair.new)
            if untouchedBeforeOld == untouchedBeforeNew { inPlace.append(index) } else { moves.append(.init(from: pair.old, to: pair.new)) }
        }
        let staying = ResultsDifference.longestIncreasingSubsequence(inPlace.map { kept[$0].new })
        for (rank, index) in inPlace.enumerated() {
            let pair = kept[index]
            if staying.contains(rank) { updates.append(.init(from: pair.old, to: pair.new)) } else { moves.append(.init(from: pair.old, to: pair.new)) }
        }
        return ResultsDifference(
            deletions: deletions.sorted(), insertions: insertions.sorted(),
            moves: moves.sorted { $0.to < $1.to }, updates: updates.sorted { $0.to < $1.to })
    }
}
