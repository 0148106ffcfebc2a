import Foundation

/// How a store keeps its change history: how long tombstones stay (``Store/historyRetention``)
/// and when they were last pruned. A store prunes at most once per ``pruningInterval``, before a
/// changes call, so the history never waits for a separate job.
///
/// ```swift
/// store.historyRetention = .seconds(7 * 24 * 3600)   // a week instead of 30 days
/// ```
package struct HistoryUpkeep: Sendable {
    /// Tombstones stay 30 days by default: long enough for a device that syncs monthly.
    package static let defaultRetention: Duration = .seconds(30 * 24 * 3600)
    /// The least time between two automatic prunings.
    package static let pruningInterval: TimeInterval = 3600

    package var retention: Duration = defaultRetention
    package var lastPruned: Date?

    /// The deletion date before which tombstones go when pruning at `now`; marks the history
    /// pruned. Nil when `onlyWhenDue` and the last pruning is younger than ``pruningInterval``.
    package mutating func takePruning(now: Date, onlyWhenDue: Bool) -> Date? {
        if onlyWhenDue, let lastPruned, now.timeIntervalSince(lastPruned) < Self.pruningInterval { return nil }
        lastPruned = now
        return now.addingTimeInterval(-retention.seconds)
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    package var seconds: TimeInterval {
        let (whole, attoseconds) = components
        return TimeInterval(whole) + TimeInterval(attoseconds) / 1e18
    }
}
