/// Fresh change tags: eight lowercase hexadecimal digits each, never equal to the tag they
/// replace.
///
/// The digits come from a SplitMix64 sequence seeded once per generator by the system's random
/// source; drawing each tag from the system instead cost a system call per saved record (2% of a
/// bulk import). A change tag only has to differ from the one before it (optimistic concurrency
/// compares them for equality), so an unpredictable seed is all the randomness it needs.
///
/// ```swift
/// var tags = ChangeTagGenerator()
/// tags.next(different: "0a1b2c3d")   // "5f3e9c01", say
/// ```
package struct ChangeTagGenerator {
    private var state: UInt64

    /// A generator seeded by the system's random source.
    package init() {
        state = UInt64.random(in: .min ... .max)
    }

    /// The next tag, never equal to `previous`.
    package mutating func next(different previous: String?) -> String {
        while true {
            let tag = Self.hexadecimal(UInt32(truncatingIfNeeded: nextNumber() >> 32))
            if tag != previous { return tag }
        }
    }

    /// SplitMix64's next number.
    private mutating func nextNumber() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number as eight hexadecimal digits, zero-padded (a small string: no allocation).
    static func hexadecimal(_ number: UInt32) -> String {
        String(unsafeUninitializedCapacity: 8) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for position in 0..<8 {
                let nibble = Int((number >> UInt32(28 - 4 * position)) & 0xF)
                buffer[position] = digits.utf8Start[nibble]
            }
            return 8
        }
    }
}
