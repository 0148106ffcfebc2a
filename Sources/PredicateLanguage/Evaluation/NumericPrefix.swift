/// The numeric readings of a string's leading text, as `NSString`'s `intValue`, `integerValue`,
/// `doubleValue` and `boolValue` read them: leading whitespace is skipped, the number ends at the
/// first character that cannot continue it, and a string that does not begin with a number reads 0.
///
/// ```swift
/// NumericPrefix.integer(of: "  -17 apples", bitWidth: 64)   // -17
/// NumericPrefix.double(of: "3.5e2x")                        // 350
/// NumericPrefix.bool(of: "yes")                             // true
/// ```
enum NumericPrefix {
    /// The leading decimal integer, saturated at the bounds of a signed integer of `bitWidth` bits
    /// (`intValue` is 32 bits, `integerValue` and `longLongValue` 64).
    static func integer(of text: String, bitWidth: Int) -> Int64 {
        let maximum: Int64 = bitWidth >= 64 ? .max : (Int64(1) << (bitWidth - 1)) - 1
        let minimum: Int64 = bitWidth >= 64 ? .min : -(Int64(1) << (bitWidth - 1))
        var bytes = text.utf8.makeIterator()
        var byte = skipWhitespace(&bytes)
        var negative = false
        if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
            negative = byte == UInt8(ascii: "-")
            byte = bytes.next()
        }
        var magnitude: UInt64 = 0
        var saturated = false
        while let digit = byte, digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") {
            if !saturated {
                let (shifted, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = shifted.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
                if overflow1 || overflow2 { saturated = true } else { magnitude = sum }
            }
            byte = bytes.next()
        }
        if negative {
            // The magnitude of the minimum is one more than the maximum.
            if saturated || magnitude > UInt64(maximum) { return minimum }
            return -Int64(magnitude)
        }
        if saturated || magnitude > UInt64(maximum) { return maximum }
        return Int64(magnitude)
    }

    /// The leading decimal floating-point number (digits, an optional fraction and exponent), or 0.
    static func double(of text: String) -> Double {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        var digits = 0
        while index < bytes.count, isDigit(bytes[index]) { index += 1; digits += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, isDigit(bytes[index]) { index += 1; digits += 1 }
        }
        guard digits > 0 else { return 0 }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            var exponentEnd = index + 1
            if exponentEnd < bytes.count, bytes[exponentEnd] == UInt8(ascii: "-") || bytes[exponentEnd] == UInt8(ascii: "+") {
                exponentEnd += 1
            }
            if exponentEnd < bytes.count, isDigit(bytes[exponentEnd]) {
                index = exponentEnd
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
        }
        var prefix = String(decoding: bytes[start..<index], as: UTF8.self)
        if prefix.hasPrefix("+") { prefix.removeFirst() }
        if prefix.hasSuffix(".") { prefix.removeLast() }
        if prefix.hasPrefix(".") || prefix.hasPrefix("-.") { prefix = prefix.replacingFirstDot() }
        return Double(prefix) ?? 0
    }

    /// `boolValue`: true when the text starts (after whitespace) with `Y`, `y`, `T` or `t`, or
    /// with a number (sign and leading zeros allowed) whose first significant digit is 1 to 9.
    static func bool(of text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        var byte = skipWhitespace(&bytes)
        switch byte {
        case UInt8(ascii: "Y"), UInt8(ascii: "y"), UInt8(ascii: "T"), UInt8(ascii: "t"): return true
        case UInt8(ascii: "-"), UInt8(ascii: "+"): byte = bytes.next()
        default: break
        }
        while byte == UInt8(ascii: "0") { byte = bytes.next() }
        guard let digit = byte else { return false }
        return digit >= UInt8(ascii: "1") && digit <= UInt8(ascii: "9")
    }

    private static func skipWhitespace(_ bytes: inout String.UTF8View.Iterator) -> UInt8? {
        var byte = bytes.next()
        while let current = byte, isWhitespace(current) { byte = bytes.next() }
        return byte
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}

extension String {
    /// The number text with a leading `0` before a bare fraction (`.5` as `0.5`, `-.5` as `-0.5`).
    fileprivate func replacingFirstDot() -> String {
        hasPrefix("-") ? "-0" + dropFirst() : "0" + self
    }
}
