import Foundation

/// A compiled `MATCHES` pattern: an ICU regular expression (through ICU's `uregex` C API) that
/// must match the whole string, within a deterministic work limit.
///
/// A match that needs more work than ``limits`` allows (counted in match-engine steps, not
/// seconds) or a deeper backtracking stack fails with `FormatPredicateError.evaluation`, naming
/// the pattern and the limit: the answer is never a silent `false`, and it never depends on
/// how busy the machine is.
///
/// `[c]` matches without regard to case (`UREGEX_CASE_INSENSITIVE`); `[d]` folds diacritics
/// out of the pattern and of the subject before matching, so `([Á-B])\w+` with `[d]` matches
/// "Alice", as on Apple platforms.
///
/// ```swift
/// let matcher = try RegularExpressionMatcher(pattern: "[A-Z][a-z]+")
/// try matcher.matches("Paris")    // true
/// try matcher.matches("Paris!")   // false: the whole string must match
/// ```
public final class RegularExpressionMatcher: Sendable {
    /// The pattern as written.
    public let pattern: String
    /// Whether `[c]` asked for case-insensitive matching.
    public let caseInsensitive: Bool
    /// Whether `[d]` asked for diacritic-insensitive matching (pattern and subject are folded).
    public let diacriticInsensitive: Bool
    /// The work and stack one match may use.
    public let limits: RegularExpressionLimits

    private let compiled: CompiledPattern

    /// Compiles a pattern; throws `FormatPredicateError.evaluation` naming the pattern when it is invalid.
    ///
    /// ```swift
    /// let matcher = try RegularExpressionMatcher(pattern: "a+", options: .caseInsensitive)
    /// ```
    public init(
        pattern: String, options: ComparisonOptions = [], limits: RegularExpressionLimits = RegularExpressionLimits()
    ) throws(FormatPredicateError) {
        self.pattern = pattern
        self.caseInsensitive = options.contains(.caseInsensitive)
        self.diacriticInsensitive = options.contains(.diacriticInsensitive)
        self.limits = limits
        // Pattern and subject in NFC (folded under [d]), so canonically equivalent spellings match alike.
        let matchedPattern = TextFolding.fold(pattern, options: diacriticInsensitive ? .diacriticInsensitive : [])
        do {
            self.compiled = try CompiledPatternCache.shared.compiled(matchedPattern, caseInsensitive: caseInsensitive)
        } catch {
            throw FormatPredicateError.evaluation("invalid regular expression \"\(pattern)\" in MATCHES: \(error.description)")
        }
    }

    /// Whether the whole string matches; throws `FormatPredicateError.evaluation` when the match
    /// needs more work or stack than ``limits`` allows.
    ///
    /// ```swift
    /// try RegularExpressionMatcher(pattern: "a+").matches("aaa")   // true
    /// ```
    public func matches(_ string: String) throws(FormatPredicateError) -> Bool {
        let subject = TextFolding.fold(string, options: diacriticInsensitive ? .diacriticInsensitive : [])
        switch compiled.matchesWhole(subject, limits: limits) {
        case .matched(let matched):
            return matched
        case .exceededWorkLimit:
            throw FormatPredicateError.evaluation(
                "regular expression \"\(pattern)\" needed more than its work limit of \(limits.workUnits) units "
                    + "(ICU match-engine steps) to match a string of \(subject.utf16.count) UTF-16 code units; "
                    + "simplify the pattern or raise EvaluationOptions.regularExpressionLimits")
        case .exceededStackLimit:
            throw FormatPredicateError.evaluation(
                "regular expression \"\(pattern)\" needed more than its backtracking stack limit of \(limits.stackBytes) bytes "
                    + "to match a string of \(subject.utf16.count) UTF-16 code units; "
                    + "simplify the pattern or raise EvaluationOptions.regularExpressionLimits")
        case .failed(let reason):
            throw FormatPredicateError.evaluation("regular expression \"\(pattern)\" failed to match: \(reason)")
        }
    }
}

/// A small, lock-protected cache of matchers for patterns that are not constants.
final class RegularExpressionCache: @unchecked Sendable {
    private struct Key: Hashable {
        var pattern: String
        var options: UInt8
        var limits: RegularExpressionLimits
    }

    private let matchers = LockedState<[Key: RegularExpressionMatcher]>([:])
    private let capacity = 64

    /// The matcher for a pattern, compiling it on first use.
    func matcher(for pattern: String, options: ComparisonOptions, limits: RegularExpressionLimits) throws(FormatPredicateError)
        -> RegularExpressionMatcher
    {
        let key = Key(pattern: pattern, options: options.rawValue, limits: limits)
        if let cached = matchers.withLock({ $0[key] }) { return cached }
        let matcher = try RegularExpressionMatcher(pattern: pattern, options: options, limits: limits)
        matchers.withLock { matchers in
            if matchers.count >= capacity { matchers.removeAll(keepingCapacity: true) }
            matchers[key] = matcher
        }
        return matcher
    }
}
