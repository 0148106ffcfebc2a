/// How much work one `MATCHES` may do before evaluation fails with
/// `FormatPredicateError.evaluation`: a count of ICU match-engine steps and a size of the
/// backtracking stack, never a time, so that an answer never depends on machine load.
///
/// ICU counts the work of a match in units of 10,000 steps of its backtracking engine (state
/// saves and loop iterations; `uregex_setTimeLimit`, whose "time" is this count). The default,
/// 1,000 units, is about ten million steps (about a tenth of a second on current hardware): a
/// pattern that backtracks exponentially, such as `(a+)+b` against thirty letters `a` (about
/// 4,000 units before ICU gives up on its own), runs out of it, while ordinary patterns match
/// subjects of a million characters well within it. The stack limit (`uregex_setStackLimit`)
/// bounds the memory one match may use for backtracking; 8 MiB, about ICU's own default.
///
/// ```swift
/// var options = EvaluationOptions()
/// options.regularExpressionLimits = RegularExpressionLimits(workUnits: 100_000, stackBytes: 64 << 20)
/// ```
public struct RegularExpressionLimits: Sendable, Hashable {
    /// The work one match may do, in ICU's units of match-engine steps; 0 sets no limit.
    public var workUnits: Int32
    /// The largest backtracking stack one match may use, in bytes; 0 sets no limit.
    public var stackBytes: Int32

    /// The default work limit: 1,000 units (about ten million match-engine steps).
    public static let defaultWorkUnits: Int32 = 1_000
    /// The default stack limit: 8 MiB.
    public static let defaultStackBytes: Int32 = 8 << 20

    /// Creates limits; negative numbers count as 0 (no limit).
    ///
    /// ```swift
    /// let strict = RegularExpressionLimits(workUnits: 100)
    /// ```
    public init(
        workUnits: Int32 = RegularExpressionLimits.defaultWorkUnits,
        stackBytes: Int32 = RegularExpressionLimits.defaultStackBytes
    ) {
        self.workUnits = max(0, workUnits)
        self.stackBytes = max(0, stackBytes)
    }
}
