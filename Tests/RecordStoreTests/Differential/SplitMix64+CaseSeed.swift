import TestSupport

extension SplitMix64 {
    /// The seed of case `index` of a run: each case has a seed of its own, so one case
    /// replays alone (`QUERY_DIFFERENTIAL_CASE_SEED=<case seed>`).
    static func caseSeed(runSeed: UInt64, index: Int) -> UInt64 {
        var generator = SplitMix64(seed: runSeed &+ UInt64(index) &* 0xD1B5_4A32_D192_ED03)
        return generator.next()
    }
}
