/// A small seeded random number generator (SplitMix64) shared by the test targets: the same
/// seed gives the same numbers on every platform and every run, so a failure found with a
/// random input can be replayed from the seed the test prints.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let die = Int.random(in: 1...6, using: &random)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's whole state.
    public private(set) var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// True with probability `percent` / 100.
    public mutating func chance(_ percent: Int) -> Bool {
        Int.random(in: 0..<100, using: &self) < percent
    }

    /// One element of a non-empty array.
    public mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[Int.random(in: 0..<elements.count, using: &self)]
    }
}
