/// What a pruning of the change history did (``Store/pruneHistory(now:)``): the tombstones of
/// deleted records and zones it dropped, and those the history keeps after it, whose count is
/// the history's size beyond the live records (each of which keeps one entry).
///
/// ```swift
/// let pruning = try await store.pruneHistory()
/// print("\(pruning.dropped) tombstones dropped, \(pruning.kept) kept")
/// ```
public struct HistoryPruning: Sendable, Equatable {
    /// The tombstones dropped: deletions older than the retention.
    public var dropped: Int
    /// The tombstones kept.
    public var kept: Int

    /// A pruning's outcome.
    public init(dropped: Int, kept: Int) {
        self.dropped = dropped
        self.kept = kept
    }
}
