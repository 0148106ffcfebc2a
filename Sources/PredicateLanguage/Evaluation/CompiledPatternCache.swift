import Foundation

/// The compiled ICU forms of recently used `MATCHES` patterns, shared by every matcher in the
/// process (``RegularExpressionCache`` keeps whole matchers for one predicate's non-constant patterns).
///
/// Compiling a pattern costs microseconds and, in swift-corelibs-foundation, `NSRegularExpression`
/// never frees about 600 bytes of each pattern longer than a few hundred characters (measured:
/// 100,000 compilations of a 300-character pattern grow the process by 60 MB; the fuzzer's leak
/// checker found it). A store that compiles each query's predicate would leak for every query;
/// with this cache a pattern is compiled once while it stays among the most recent ones.
///
/// ```swift
/// let compiled = try CompiledPatternCache.shared.compiled("[A-Z][a-z]+", caseInsensitive: false)
/// ```
final class CompiledPatternCache: @unchecked Sendable {
    /// A pattern compiled for whole-string matching.
    struct Compiled {
        /// The expression: the pattern wrapped as `(?:pattern)\z` when `wrapped`, else the pattern.
        let expression: NSRegularExpression
        /// Whether `expression` is the wrapped form.
        let wrapped: Bool
    }

    private struct Key: Hashable {
        let pattern: String
        let caseInsensitive: Bool
    }

    /// The cache every matcher uses.
    static let shared = CompiledPatternCache(capacity: 256)

    private let capacity: Int
    private let lock = NSLock()
    private var entries: [Key: Compiled] = [:]

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The compiled pattern, from the cache or compiled now; throws Foundation's error for an
    /// invalid pattern (invalid patterns are not cached).
    func compiled(_ pattern: String, caseInsensitive: Bool) throws -> Compiled {
        let key = Key(pattern: pattern, caseInsensitive: caseInsensitive)
        lock.lock()
        let cached = entries[key]
        lock.unlock()
        if let cached { return cached }
        let options: NSRegularExpression.Options = caseInsensitive ? [.caseInsensitive] : []
        // The pattern must be valid on its own (wrapping can make an invalid one valid, as
        // `a)(?:b`), and the wrapped form may fail where the pattern does not (a trailing
        // `(?x)` comment swallows the closing parenthesis): then the match range is checked.
        let plain = try NSRegularExpression(pattern: pattern, options: options)
        let compiled =
            if let whole = try? NSRegularExpression(pattern: "(?:\(pattern))\\z", options: options) {
                Compiled(expression: whole, wrapped: true)
            } else {
                Compiled(expression: plain, wrapped: false)
            }
        lock.lock()
        if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
        entries[key] = compiled
        lock.unlock()
        return compiled
    }
}
