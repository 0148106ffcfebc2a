/// A small seeded random number generator (SplitMix64): the same seed gives the same
/// numbers on every platform and every run, so a differential failure can be replayed.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let die = Int.random(in: 1...6, using: &random)
/// ```
struct SplitMix64: RandomNumberGenerator {
    private(set) var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// The seed of case `index` of a run: each case has a seed of its own, so one case
    /// replays alone (`QUERY_DIFFERENTIAL_CASE_SEED=<case seed>`).
    static func caseSeed(runSeed: UInt64, index: Int) -> UInt64 {
        var generator = SplitMix64(seed: runSeed &+ UInt64(index) &* 0xD1B5_4A32_D192_ED03)
        return generator.next()
    }

    /// True with probability `percent` / 100.
    mutating func chance(_ percent: Int) -> Bool {
        Int.random(in: 0..<100, using: &self) < percent
    }

    /// One element of a non-empty array.
    mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[Int.random(in: 0..<elements.count, using: &self)]
    }
}
