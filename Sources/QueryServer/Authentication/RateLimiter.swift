// Part of the Server trait: without it, this module is empty.
#if Server
import Foundation
import RecordStore

/// Per-caller rate limits: a token bucket per key ID, API token or client address, refilled at
/// `rate` requests a second up to `burst`. A caller over its limit gets `THROTTLED` with
/// `retryAfter`, the whole seconds until a request would pass.
///
/// A bucket that has refilled to `burst` is the same as no bucket, so such buckets are dropped
/// whenever the table has doubled since it was last swept: callers who went quiet cost no memory.
///
/// ```swift
/// let limiter = RateLimiter(rate: 100, burst: 200)
/// try limiter.admit("key:2f1b")   // throws THROTTLED past 200 requests at once
/// ```
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: TimeInterval
    }

    private struct Table {
        var buckets: [String: Bucket] = [:]
        /// The size at which the next sweep runs.
        var sweepAt = RateLimiter.smallestSweep
    }

    static let smallestSweep = 1024

    let rate: Double
    let burst: Double
    private let table = LockedState(Table())

    /// A limiter; a `rate` of 0 or less admits everything.
    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = max(1, burst)
    }

    /// How many callers have a bucket (for tests of the eviction).
    var bucketCount: Int { table.withLock { $0.buckets.count } }

    /// Takes one request from the caller's bucket, or throws `THROTTLED`.
    func admit(_ caller: String, now: TimeInterval = ProcessInfo.processInfo.systemUptime) throws(ServerError) {
        try take(caller, now: now, consume: true)
    }

    /// Throws `THROTTLED` when the caller's bucket is empty, taking nothing from it.
    func check(_ caller: String, now: TimeInterval = ProcessInfo.processInfo.systemUptime) throws(ServerError) {
        try take(caller, now: now, consume: false)
    }

    /// Takes one token from the caller's bucket if it has one, without throwing (a failure counted).
    func record(_ caller: String, now: TimeInterval = ProcessInfo.processInfo.systemUptime) {
        try? take(caller, now: now, consume: true)
    }

    private func take(_ caller: String, now: TimeInterval, consume: Bool) throws(ServerError) {
        guard rate > 0 else { return }
        let wait: Double? = table.withLock { table in
            var bucket = table.buckets[caller] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + (now - bucket.updated) * rate)
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                table.buckets[caller] = bucket
                return (1 - bucket.tokens) / rate
            }
            if consume {
                bucket.tokens -= 1
                table.buckets[caller] = bucket
                if table.buckets.count >= table.sweepAt { sweep(&table, now: now) }
            }
            return nil
        }
        if let wait {
            let seconds = max(1, Int(wait.rounded(.up)))
            throw ServerError(.throttled, "too many requests from this caller; retry after \(seconds) seconds", retryAfter: seconds)
        }
    }

    /// Drops the buckets that have refilled to `burst` by `now`.
    private func sweep(_ table: inout Table, now: TimeInterval) {
        table.buckets = table.buckets.filter { $0.value.tokens + (now - $0.value.updated) * rate < burst }
        table.sweepAt = max(Self.smallestSweep, 2 * table.buckets.count)
    }
}
#endif
