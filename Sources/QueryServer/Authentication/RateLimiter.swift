import Foundation
import RecordStore

/// Per-caller rate limits: a token bucket per key ID or API token, refilled at `rate` requests a
/// second up to `burst`. A caller over its limit gets `THROTTLED` with `retryAfter`, the whole
/// seconds until a request would pass.
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

    let rate: Double
    let burst: Double
    private let buckets = LockedState<[String: Bucket]>([:])

    /// A limiter; a `rate` of 0 or less admits everything.
    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = max(1, burst)
    }

    /// Takes one request from the caller's bucket, or throws `THROTTLED`.
    func admit(_ caller: String, now: TimeInterval = ProcessInfo.processInfo.systemUptime) throws(ServerError) {
        guard rate > 0 else { return }
        let wait: Double? = buckets.withLock { buckets in
            var bucket = buckets[caller] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + (now - bucket.updated) * rate)
            bucket.updated = now
            defer { buckets[caller] = bucket }
            guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / rate }
            bucket.tokens -= 1
            return nil
        }
        if let wait {
            let seconds = max(1, Int(wait.rounded(.up)))
            throw ServerError(.throttled, "too many requests from this caller; retry after \(seconds) seconds", retryAfter: seconds)
        }
    }
}
