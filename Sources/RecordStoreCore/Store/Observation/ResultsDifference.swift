/// How a list of results changed, in the shape `NSFetchedResultsController` reports it and a
/// table view applies it in one batch: the old positions of the records that left, the new
/// positions of the records that arrived, the records that moved (old and new position), and
/// the records that stayed in place but changed (old and new position).
///
/// Moves are as few as can be: records whose relative order is kept (the longest increasing
/// subsequence of their new positions) do not move; only the others do. The first step of live
/// queries (issue #15): an observer compares what it showed with what it shows now.
///
/// ```swift
/// let change = ResultsDifference(old: shown, new: current)
/// change.deletions    // [2]          positions in `shown`
/// change.insertions   // [0]          positions in `current`
/// change.moves        // [.init(from: 4, to: 1)]
/// change.updates      // [.init(from: 3, to: 3)]
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `ResultsChange`,
/// `SectionedDifference` and `ModelResultsChange`.
public struct ResultsDifference: Sendable, Equatable {
    /// A record at one position before and another after.
    public struct Move: Sendable, Equatable {
        /// The position before.
        public let from: Int
        /// The position after.
        public let to: Int

        /// A record's positions before and after.
        ///
        /// ```swift
        /// ResultsDifference.Move(from: 4, to: 1)
        /// ```
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Positions in the old results of the records that are gone, ascending.
    public let deletions: [Int]
    /// Positions in the new results of the records that are new, ascending.
    public let insertions: [Int]
    /// Records present before and after whose place among the others changed (a moved record may
    /// have changed too: redraw it at its new place), by new position.
    public let moves: [Move]
    /// Records that kept their place among the others but whose change tag changed, by new position.
    public let updates: [Move]

    /// Whether nothing changed.
    public var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && moves.isEmpty && updates.isEmpty }

    /// A difference given by its parts (each sorted as documented).
    package init(deletions: [Int], insertions: [Int], moves: [Move], updates: [Move]) {
        self.deletions = deletions
        self.insertions = insertions
        self.moves = moves
        self.updates = updates
    }

    /// No change.
    public static let none = ResultsDifference(deletions: [], insertions: [], moves: [], updates: [])

    /// The difference between two lists of records, matched by record ID; a record whose change
    /// tag differs is updated (or moved, when its place changed too).
    public init(old: [Record], new: [Record]) {
        self.init(old: old.map { ($0.recordID, $0.recordChangeTag) }, new: new.map { ($0.recordID, $0.recordChangeTag) })
    }

    /// The difference between two lists of identities with versions (each identity at most once a list).
    public init<ID: Hashable, Version: Equatable>(old: [(id: ID, version: Version)], new: [(id: ID, version: Version)]) {
        var newPositions: [ID: Int] = [:]
        newPositions.reserveCapacity(new.count)
        for (position, entry) in new.enumerated() { newPositions[entry.id] = position }
        var oldIDs = Set<ID>()
        oldIDs.reserveCapacity(old.count)

        var deletions: [Int] = []
        // The records kept, in old order, with their new positions.
        var kept: [(old: Int, new: Int)] = []
        for (position, entry) in old.enumerated() {
            oldIDs.insert(entry.id)
            if let target = newPositions[entry.id] {
                kept.append((position, target))
            } else {
                deletions.append(position)
            }
        }
        let insertions = new.indices.filter { !oldIDs.contains(new[$0].id) }

        // Those on the longest increasing run of new positions stay; the rest move.
        let staying = Self.longestIncreasingSubsequence(kept.map(\.new))
        var moves: [Move] = []
        var updates: [Move] = []
        for (index, pair) in kept.enumerated() {
            if !staying.contains(index) {
                moves.append(Move(from: pair.old, to: pair.new))
            } else if old[pair.old].version != new[pair.new].version {
                updates.append(Move(from: pair.old, to: pair.new))
            }
        }
        self.deletions = deletions
        self.insertions = insertions
        self.moves = moves.sorted { $0.to < $1.to }
        self.updates = updates.sorted { $0.to < $1.to }
    }

    /// The indexes (into `values`) of one longest strictly increasing subsequence: O(n log n).
    package static func longestIncreasingSubsequence(_ values: [Int]) -> Set<Int> {
        // tails[k]: the index of the smallest last value of an increasing run of length k + 1.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var members = Set<Int>()
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            members.insert(cursor)
            cursor = previous[cursor]
        }
        return members
    }
}
