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

    /// Whether the history should be pruned now; marks it pruned when so.
    package mutating func takePruning(now: Date) -> Date? {
        if let lastPruned, now.timeIntervalSince(lastPruned) < Self.pruningInterval { return nil }
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
