import Foundation

/// The compiled ICU forms of recently used `MATCHES` patterns, shared by every matcher in the
/// process (``RegularExpressionCache`` keeps whole matchers for one predicate's non-constant patterns).
///
/// A pattern is compiled once while it stays among the most recent ones; invalid patterns
/// are not kept.
///
/// ```swift
/// let compiled = try CompiledPatternCache.shared.compiled("[A-Z][a-z]+", caseInsensitive: false)
/// ```
final class CompiledPatternCache: @unchecked Sendable {
    private struct Key: Hashable {
        let pattern: String
        let caseInsensitive: Bool
    }

    /// The cache every matcher uses.
    static let shared = CompiledPatternCache(capacity: 256)

    private let capacity: Int
    private let entries = LockedState<[Key: CompiledPattern]>([:])

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The compiled pattern, from the cache or compiled now; throws for an invalid pattern.
    func compiled(_ pattern: String, caseInsensitive: Bool) throws(PatternCompilationFailure) -> CompiledPattern {
        let key = Key(pattern: pattern, caseInsensitive: caseInsensitive)
        if let cached = entries.withLock({ $0[key] }) { return cached }
        let compiled = try CompiledPattern(pattern: pattern, caseInsensitive: caseInsensitive)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = compiled
        }
        return compiled
    }
}

/// Why ICU rejected a pattern: its error name and the offset of the offending character.
struct PatternCompilationFailure: Error {
    /// ICU's name for the error, such as `U_REGEX_MISSING_CLOSE_PAREN`.
    let errorName: String
    /// The offset in the pattern, in UTF-16 code units, when ICU gives one.
    let offset: Int?

    /// "not a valid ICU pattern (U_REGEX_MISSING_CLOSE_PAREN at offset 9)".
    var description: String {
        if let offset { return "not a valid ICU pattern (\(errorName) at offset \(offset))" }
        return "not a valid ICU pattern (\(errorName))"
    }
}
