import CFoundationICU
import Foundation
import _FoundationICU

/// One ICU regular expression (`uregex`), compiled once, with a small pool of matchers.
///
/// The ICU is the toolchain's own copy (`_FoundationICU`, the one Foundation uses; its C
/// functions carry a `swift_` prefix), so nothing beyond the Swift toolchain is needed.
///
/// An ICU matcher holds the state of one match, so a thread takes a matcher from the pool
/// (a clone that shares the compiled pattern) for the length of one match and gives it back.
///
/// ```swift
/// let compiled = try CompiledPattern(pattern: "a+", caseInsensitive: false)
/// try compiled.matchesWhole("aaa", limits: RegularExpressionLimits())   // .matched(true)
/// ```
final class CompiledPattern: @unchecked Sendable {
    // The template is only read (cloned) after initialization, which ICU allows from several
    // threads; the pool is guarded by the lock.

    /// The outcome of one match.
    enum Outcome: Equatable {
        /// The match ran to the end: whether the whole subject matched.
        case matched(Bool)
        /// The match used more than its work limit.
        case exceededWorkLimit
        /// The match needed a larger backtracking stack than its limit.
        case exceededStackLimit
        /// ICU failed otherwise (its error name), or the subject was too long for ICU.
        case failed(String)
    }

    /// A pooled matcher and the limits last set on it.
    private struct Matcher {
        let expression: OpaquePointer
        var limits: RegularExpressionLimits?
    }

    private let template: OpaquePointer
    /// The idle matchers.
    private let idle = LockedState<[Matcher]>([])
    /// The most matchers kept idle; more are closed when given back.
    private static let poolCapacity = 8

    init(pattern: String, caseInsensitive: Bool) throws(PatternCompilationFailure) {
        // ICU refuses a pattern of length 0 (U_ILLEGAL_ARGUMENT_ERROR); the empty group matches exactly
        // what the empty pattern means, the empty string (NSPredicate's `MATCHES ""`).
        let units = pattern.isEmpty ? Array("(?:)".utf16) : Array(pattern.utf16)
        var status = U_ZERO_ERROR
        var parseError = UParseError()
        let compiled: OpaquePointer? = units.withUnsafeBufferPointer { buffer in
            swift_uregex_open(
                buffer.baseAddress, Int32(clamping: buffer.count), caseInsensitive ? UREGEX_CASE_INSENSITIVE.rawValue : 0,
                &parseError, &status)
        }
        guard let compiled, !Self.failed(status) else {
            if let compiled { swift_uregex_close(compiled) }
            let offset = parseError.offset >= 0 ? Int(parseError.offset) : nil
            throw PatternCompilationFailure(errorName: String(cString: swift_u_errorName(status)), offset: offset)
        }
        template = compiled
    }

    deinit {
        for matcher in idle.withLock({ $0 }) { swift_uregex_close(matcher.expression) }
        swift_uregex_close(template)
    }

    /// Whether the whole of `subject` matches, within `limits`.
    func matchesWhole(_ subject: String, limits: RegularExpressionLimits) -> Outcome {
        let length = subject.utf16.count
        guard length < Int(Int32.max) else { return .failed("a subject of \(length) UTF-16 code units is longer than ICU accepts") }
        guard var matcher = takeMatcher() else { return .failed("ICU could not create a matcher") }
        defer { giveBack(matcher) }
        var status = U_ZERO_ERROR
        if matcher.limits != limits {
            swift_uregex_setTimeLimit(matcher.expression, limits.workUnits, &status)
            swift_uregex_setStackLimit(matcher.expression, limits.stackBytes, &status)
            guard !Self.failed(status) else { return .failed(String(cString: swift_u_errorName(status))) }
            matcher.limits = limits
        }
        return withUnsafeTemporaryAllocation(of: UInt16.self, capacity: max(1, length)) { buffer -> Outcome in
            Self.copyUTF16(of: subject, length: length, into: buffer)
            var status = U_ZERO_ERROR
            swift_uregex_setText(matcher.expression, buffer.baseAddress, Int32(length), &status)
            let matched = swift_uregex_matches(matcher.expression, 0, &status) != 0
            // Detach the subject: the buffer is freed when this closure returns.
            var detachStatus = U_ZERO_ERROR
            swift_uregex_setText(matcher.expression, buffer.baseAddress, 0, &detachStatus)
            if status == U_REGEX_TIME_OUT { return .exceededWorkLimit }
            if status == U_REGEX_STACK_OVERFLOW { return .exceededStackLimit }
            if Self.failed(status) { return .failed(String(cString: swift_u_errorName(status))) }
            return .matched(matched)
        }
    }

    /// Writes the UTF-16 code units of `subject` (`length` of them) into `buffer`; an ASCII
    /// string (as many UTF-8 bytes as UTF-16 units) is widened byte by byte.
    private static func copyUTF16(of subject: String, length: Int, into buffer: UnsafeMutableBufferPointer<UInt16>) {
        var text = subject
        let widened = text.withUTF8 { bytes -> Bool in
            guard bytes.count == length else { return false }
            for index in 0..<length { buffer[index] = UInt16(bytes[index]) }
            return true
        }
        if widened { return }
        var index = 0
        for unit in subject.utf16 {
            buffer[index] = unit
            index += 1
        }
    }

    /// ICU's `U_FAILURE`: codes above zero are errors (below zero are warnings).
    private static func failed(_ status: UErrorCode) -> Bool {
        status.rawValue > U_ZERO_ERROR.rawValue
    }

    private func takeMatcher() -> Matcher? {
        if let pooled = idle.withLock({ $0.popLast() }) { return pooled }
        var status = U_ZERO_ERROR
        guard let clone = swift_uregex_clone(template, &status), !Self.failed(status) else { return nil }
        return Matcher(expression: clone, limits: nil)
    }

    private func giveBack(_ matcher: Matcher) {
        let kept = idle.withLock { idle in
            guard idle.count < Self.poolCapacity else { return false }
            idle.append(matcher)
            return true
        }
        if !kept { swift_uregex_close(matcher.expression) }
    }
}
