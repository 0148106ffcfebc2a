/// Bytes as lower-case hexadecimal digits, two a byte: how the package spells digests,
/// checksums and random tokens as text.
///
/// ```swift
/// Hexadecimal.lowercase([0x0F, 0xA0])   // "0fa0"
/// ```
package enum Hexadecimal {
    /// The bytes' digits, written as bytes (not a `Character` at a time).
    package static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        let digits: StaticString = "0123456789abcdef"
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits.utf8Start[Int(byte >> 4)])
            text.append(digits.utf8Start[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
