import Foundation

/// A compiled `MATCHES` pattern: an ICU regular expression (through
/// `NSRegularExpression`) that must match the whole string, with a time limit.
///
/// A match that runs longer than the limit stops (through the `.reportProgress`
/// matching option, which works on Linux as on Apple platforms) and fails with
/// `FormatPredicateError.evaluation`.
///
/// ```swift
/// let matcher = try RegularExpressionMatcher(pattern: "[A-Z][a-z]+")
/// try matcher.matches("Paris")    // true
/// try matcher.matches("Paris!")   // false: the whole string must match
/// ```
public final class RegularExpressionMatcher: @unchecked Sendable {
    // NSRegularExpression is immutable and documented as safe to use from several threads.

    /// The pattern as written.
    public let pattern: String
    /// Whether `[c]` asked for case-insensitive matching.
    public let caseInsensitive: Bool
    /// Whether `[d]` asked for diacritic-insensitive matching (the string is folded first).
    public let diacriticInsensitive: Bool
    /// The longest one match may run, in seconds.
    public let timeLimit: TimeInterval

    private let expression: NSRegularExpression

    /// Compiles a pattern; throws `FormatPredicateError.evaluation` naming the pattern when it is invalid.
    ///
    /// ```swift
    /// let matcher = try RegularExpressionMatcher(pattern: "a+", options: .caseInsensitive, timeLimit: 0.5)
    /// ```
    public init(pattern: String, options: ComparisonOptions = [], timeLimit: TimeInterval = 0.5) throws(FormatPredicateError) {
        self.pattern = pattern
        self.caseInsensitive = options.contains(.caseInsensitive)
        self.diacriticInsensitive = options.contains(.diacriticInsensitive)
        self.timeLimit = timeLimit
        do {
            let compiled = try CompiledPatternCache.shared.compiled(pattern, caseInsensitive: caseInsensitive)
            self.expression = compiled.expression
        } catch {
            throw FormatPredicateError.evaluation(
                "invalid regular expression \"\(pattern)\" in MATCHES: \(Self.describe(error))")
        }
    }

    /// Whether the whole string matches; throws `FormatPredicateError.evaluation` when
    /// matching takes longer than the time limit.
    ///
    /// ```swift
    /// try RegularExpressionMatcher(pattern: "a+").matches("aaa")   // true
    /// ```
    public func matches(_ string: String) throws(FormatPredicateError) -> Bool {
        let subject = diacriticInsensitive ? TextFolding.fold(string, options: .diacriticInsensitive) : string
        let length = subject.utf16.count
        let clock = ContinuousClock()
        let start = clock.now
        let limit = Duration.nanoseconds(Int64(max(0, min(timeLimit, 1e9)) * 1e9))
        var matched = false
        var timedOut = false
        expression.enumerateMatches(
            in: subject, options: [.anchored, .reportProgress],
            range: NSRange(location: 0, length: length)
        ) { result, flags, stop in
            if let result {
                matched = result.range.location == 0 && result.range.length == length
                stop.pointee = true
            } else if flags.contains(.progress), clock.now - start > limit {
                timedOut = true
                stop.pointee = true
            }
        }
        if timedOut {
            throw FormatPredicateError.evaluation(
                "regular expression \"\(pattern)\" took longer than \(timeLimit) seconds to match a string of \(length) UTF-16 code units; simplify the pattern")
        }
        return matched
    }

    static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if let detail = nsError.userInfo["NSInvalidValue"] { return "not a valid ICU pattern (\(detail))" }
        return "not a valid ICU pattern (\(nsError.domain) error \(nsError.code))"
    }
}

/// A small, lock-protected cache of matchers for patterns that are not constants.
final class RegularExpressionCache: @unchecked Sendable {
    private struct Key: Hashable {
        var pattern: String
        var options: UInt8
    }

    private let lock = NSLock()
    private var matchers: [Key: RegularExpressionMatcher] = [:]
    private let capacity = 64

    /// The matcher for a pattern, compiling it on first use.
    func matcher(for pattern: String, options: ComparisonOptions, timeLimit: TimeInterval) throws(FormatPredicateError)
        -> RegularExpressionMatcher
    {
        let key = Key(pattern: pattern, options: options.rawValue)
        lock.lock()
        let cached = matchers[key]
        lock.unlock()
        if let cached { return cached }
        let matcher = try RegularExpressionMatcher(pattern: pattern, options: options, timeLimit: timeLimit)
        lock.lock()
        if matchers.count >= capacity { matchers.removeAll(keepingCapacity: true) }
        matchers[key] = matcher
        lock.unlock()
        return matcher
    }
}
