// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

/// Counts of things held per key (connections per client address, event streams per caller),
/// shared across tasks: a key is forgotten when its count returns to 0, so keys that went away
/// cost no memory.
///
/// ```swift
/// let counts = CappedCounts()
/// counts.add("address:127.0.0.2", upTo: 64)   // true while below 64
/// counts.remove("address:127.0.0.2")
/// ```
final class CappedCounts: Sendable {
    private let counts = LockedState<[String: Int]>([:])

    init() {}

    /// The count of a key now.
    func count(of key: String) -> Int { counts.withLock { $0[key] ?? 0 } }

    /// Adds one to a key's count and returns whether the new count is at most `limit`; with
    /// `refusingPastLimit`, a count that would pass `limit` is not added.
    func add(_ key: String, upTo limit: Int, refusingPastLimit: Bool = false) -> Bool {
        counts.withLock { counts in
            let count = (counts[key] ?? 0) + 1
            if count > limit, refusingPastLimit { return false }
            counts[key] = count
            return count <= limit
        }
    }

    /// Takes one from a key's count.
    func remove(_ key: String) {
        counts.withLock { counts in
            let count = (counts[key] ?? 1) - 1
            counts[key] = count > 0 ? count : nil
        }
    }
}
#endif
