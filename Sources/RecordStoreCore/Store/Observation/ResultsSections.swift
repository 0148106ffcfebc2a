import PredicateLanguage

/// One section of a live query's results: the records that share a value of the section key
/// (`sectionNameKeyPath` in `NSFetchedResultsController`), consecutive in the results.
///
/// ```swift
/// for section in change.sections {
///     print(section.name, change.records[section.range].count)
/// }
/// ```
public struct ResultsSection: Sendable, Hashable {
    /// The section key's value its records share.
    public let name: Value
    /// Its records' positions in the results.
    public let range: Range<Int>

    /// A section of a name over positions of the results.
    ///
    /// ```swift
    /// ResultsSection(name: "FR", range: 1..<3)
    /// ```
    public init(name: Value, range: Range<Int>) {
        self.name = name
        self.range = range
    }
}

/// A record's place in sectioned results: its section and its position in it (an `IndexPath`
/// of `NSFetchedResultsController`).
public struct ResultsIndexPath: Sendable, Hashable, CustomStringConvertible {
    /// The section's position among the sections.
    public let section: Int
    /// The record's position in its section.
    public let item: Int

    /// An index path.
    ///
    /// ```swift
    /// ResultsIndexPath(section: 1, item: 0)   // the second section's first record
    /// ```
    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    public var description: String { "[\(section), \(item)]" }
}

/// A change of a sectioned live query, as `NSFetchedResultsController`'s delegate hears it:
/// sections deleted and inserted, then each record's change by index path (section, item).
///
/// ```swift
/// if let sectioned = change.sectionedDifference {
///     print(sectioned.sectionInsertions)        // [1]: a new section second
///     print(sectioned.insertions)               // [[1, 0]]: its first record
/// }
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `ResultsDifference`,
/// `ResultsChange` and `ModelResultsChange`.
public struct SectionedDifference: Sendable, Equatable {
    /// A record's index path before and after.
    public struct Move: Sendable, Equatable {
        /// Where the record was (in the sections before).
        public let from: ResultsIndexPath
        /// Where it is (in the sections after).
        public let to: ResultsIndexPath

        /// A record's move.
        ///
        /// ```swift
        /// SectionedDifference.Move(from: ResultsIndexPath(section: 0, item: 1), to: ResultsIndexPath(section: 0, item: 0))
        /// ```
        public init(from: ResultsIndexPath, to: ResultsIndexPath) {
            self.from = from
            self.to = to
        }
    }

    /// Sections gone, by old section index, ascending.
    public let sectionDeletions: [Int]
    /// Sections new, by new section index, ascending.
    public let sectionInsertions: [Int]
    /// Records gone, by old index path.
    public let deletions: [ResultsIndexPath]
    /// Records new, by new index path.
    public let insertions: [ResultsIndexPath]
    /// Records whose place changed.
    public let moves: [Move]
    /// Records changed in place.
    public let updates: [Move]

    /// Whether nothing changed.
    public var isEmpty: Bool {
        sectionDeletions.isEmpty && sectionInsertions.isEmpty && deletions.isEmpty && insertions.isEmpty && moves.isEmpty && updates.isEmpty
    }
}

/// The sections of a live query's results, kept as section names with their record counts and
/// changed by the same steps as the results (``ResultsDifference``), in O(sections) a step.
package struct SectionLayout: Equatable {
    private(set) var names: [Value] = []
    private(set) var counts: [Int] = []
    package let key: String

    /// The sections of records in order: each run of records with an equal section key value.
    package init(key: String, results: ObservedResults) {
        self.key = key
        for record in results {
            let name = record.value(named: key)
            if let last = names.last, last == name {
                counts[counts.count - 1] += 1
            } else {
                names.append(name)
                counts.append(1)
            }
        }
    }

    /// The sections as names and ranges.
    package var sections: [ResultsSection] {
        var start = 0
        return zip(names, counts).map { name, count in
            defer { start += count }
            return ResultsSection(name: name, range: start..<(start + count))
        }
    }

    /// The section of a position and the position within it.
    package func indexPath(of position: Int) -> ResultsIndexPath {
        var start = 0
        for (section, count) in counts.enumerated() {
            if position < start + count { return ResultsIndexPath(section: section, item: position - start) }
            start += count
        }
        // The end position: one past the last section's last record.
        return ResultsIndexPath(section: max(0, counts.count - 1), item: counts.last ?? 0)
    }

    /// The layout after a difference: the removals (old positions, last first), then the
    /// insertions (new positions, first first) of `results`, the results after it. An update
    /// is both (its section key may have changed while its place did not).
    package func applying(_ difference: ResultsDifference, results: ObservedResults) -> SectionLayout {
        var layout = self
        let removed = (difference.deletions + difference.moves.map(\.from) + difference.updates.map(\.from)).sorted(by: >)
        for position in removed { layout.remove(at: position) }
        let inserted = (difference.insertions + difference.moves.map(\.to) + difference.updates.map(\.to)).sorted()
        for position in inserted { layout.insert(results[position].value(named: key), at: position) }
        return layout
    }

    private mutating func remove(at position: Int) {
        var start = 0
        for section in counts.indices {
            if position < start + counts[section] {
                counts[section] -= 1
                if counts[section] == 0 {
                    counts.remove(at: section)
                    names.remove(at: section)
                    mergeNeighbours(around: section)
                }
                return
            }
            start += counts[section]
        }
    }

    private mutating func insert(_ name: Value, at position: Int) {
        var start = 0
        for section in counts.indices {
            let end = start + counts[section]
            if position < end || (position == end && names[section] == name) {
                if names[section] == name {
                    counts[section] += 1
                } else if position == start {
                    if section > 0, names[section - 1] == name {
                        counts[section - 1] += 1
                    } else {
                        names.insert(name, at: section)
                        counts.insert(1, at: section)
                    }
                } else {
                    // Inside a section of another name: split it around the new record.
                    let before = position - start
                    counts[section] = before
                    names.insert(name, at: section + 1)
                    counts.insert(1, at: section + 1)
                    names.insert(names[section], at: section + 2)
                    counts.insert(end - position, at: section + 2)
                }
                return
            }
            start = end
        }
        names.append(name)
        counts.append(1)
    }

    /// Joins two sections of one name that a removal made neighbours.
    private mutating func mergeNeighbours(around section: Int) {
        guard section > 0, section < names.count, names[section - 1] == names[section] else { return }
        counts[section - 1] += counts[section]
        counts.remove(at: section)
        names.remove(at: section)
    }

    /// The sectioned form of a difference between this layout and `new`: an update whose
    /// index path changed (its section key did) is a move, as `NSFetchedResultsController` says.
    package func difference(to new: SectionLayout, items difference: ResultsDifference) -> SectionedDifference {
        let sections = ResultsDifference(old: identities(), new: new.identities())
        var moves = difference.moves.map { SectionedDifference.Move(from: indexPath(of: $0.from), to: new.indexPath(of: $0.to)) }
        var updates: [SectionedDifference.Move] = []
        for update in difference.updates {
            let change = SectionedDifference.Move(from: indexPath(of: update.from), to: new.indexPath(of: update.to))
            if names[change.from.section] == new.names[change.to.section] { updates.append(change) } else { moves.append(change) }
        }
        return SectionedDifference(
            sectionDeletions: sections.deletions,
            sectionInsertions: sections.insertions,
            deletions: difference.deletions.map(indexPath(of:)),
            insertions: difference.insertions.map(new.indexPath(of:)),
            moves: moves, updates: updates)
    }

    /// Each section's identity (its name and how many sections of that name came before) with
    /// an unchanging version, for matching sections between layouts.
    private func identities() -> [(id: SectionIdentity, version: Int)] {
        var seen: [Value: Int] = [:]
        return names.map { name in
            let occurrence = seen[name, default: 0]
            seen[name] = occurrence + 1
            return (SectionIdentity(name: name, occurrence: occurrence), 0)
        }
    }

    private struct SectionIdentity: Hashable {
        package let name: Value
        package let occurrence: Int
    }
}
