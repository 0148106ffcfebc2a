// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStoreCore

/// Latencies counted in fixed buckets, so that a percentile is found without keeping every
/// sample: 38 counters whatever the number of requests.
///
/// The buckets' upper bounds go 1, 1.5, 2, 3, 5, 7 in each decade from 0.1 ms to 70 s, then
/// 100 s, then everything slower (``bounds``). A percentile is the upper bound of the bucket that
/// holds the sample of its rank (nearest rank: the `p`th percentile of `n` samples is the
/// ⌈p·n/100⌉th fastest), but never more than the slowest sample: it is at most half again the
/// true value (1 ms → 1.5 ms), never below it.
///
/// ```swift
/// var histogram = LatencyHistogram()
/// for milliseconds in [1, 2, 3, 40] { histogram.record(microseconds: milliseconds * 1000) }
/// histogram.percentile(50)   // 2.0 (milliseconds)
/// histogram.percentile(99)   // 40.0: the bucket up to 50 ms, held to the slowest sample
/// ```
struct LatencyHistogram: Sendable, Equatable {
    /// The buckets' upper bounds in microseconds, in increasing order; a last bucket holds the
    /// slower samples.
    static let bounds: [Int64] = {
        var bounds: [Int64] = []
        var decade: Int64 = 100
        while decade <= 10_000_000 {
            for step: Int64 in [10, 15, 20, 30, 50, 70] { bounds.append(decade * step / 10) }
            decade *= 10
        }
        return bounds + [100_000_000]
    }()

    /// The samples in each bucket, ``bounds`` first, then the slower ones.
    private(set) var counts = [Int](repeating: 0, count: Self.bounds.count + 1)
    /// The number of samples.
    private(set) var count = 0
    /// The slowest sample, in microseconds.
    private(set) var slowest: Int64 = 0

    /// Counts a latency (a negative one as zero).
    mutating func record(microseconds: Int64) {
        let value = max(0, microseconds)
        counts[Self.bucket(of: value)] += 1
        count += 1
        slowest = max(slowest, value)
    }

    /// Counts the samples of another histogram too.
    mutating func add(_ other: LatencyHistogram) {
        for index in counts.indices { counts[index] += other.counts[index] }
        count += other.count
        slowest = max(slowest, other.slowest)
    }

    /// The `percent`th percentile in milliseconds (`percent` from 1 to 100), or nil without samples.
    func percentile(_ percent: Int) -> Double? {
        guard count > 0 else { return nil }
        let rank = max(1, (min(100, max(1, percent)) * count + 99) / 100)
        var seen = 0
        for (index, bucketCount) in counts.enumerated() {
            seen += bucketCount
            guard seen >= rank else { continue }
            let bound = index < Self.bounds.count ? min(Self.bounds[index], slowest) : slowest
            return Double(bound) / 1000
        }
        return Double(slowest) / 1000
    }

    /// The index of the bucket of a latency in microseconds: the first whose bound is not below it.
    static func bucket(of microseconds: Int64) -> Int {
        bounds.lowerBound(of: microseconds)
    }
}
#endif
