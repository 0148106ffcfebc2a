/// The package's one JSON writer: JSON's primitives (strings with their escapes, numbers,
/// literals) and its containers, written straight into UTF-8 bytes. ``JSONValue/jsonBytes()``,
/// ``Value/jsonText(sortedKeys:)`` and the server's record writer (`WireRecord`, which writes
/// the records of `records/query` without building a tree first) are all made of these calls, so
/// JSON is escaped and spelled in one place.
///
/// ```swift
/// var bytes: [UInt8] = []
/// JSONWriter.writeObject([(key: "name", value: "Zürich \"quoted\"")], into: &bytes) { text, bytes in
///     JSONWriter.writeString(text, into: &bytes)
/// }
/// String(decoding: bytes, as: UTF8.self)   // {"name":"Zürich \"quoted\""}
/// ```
package enum JSONWriter {
    /// What a number JSON cannot spell (an infinity, NaN) is written as.
    package enum NonFiniteNumbers: Sendable {
        /// `null` (the command line's JSON mapping).
        case null
        /// The strings `"Infinity"`, `"-Infinity"` and `"NaN"` (the server's wire JSON).
        case string
    }

    /// `null`.
    package static func writeNull(into bytes: inout [UInt8]) {
        bytes.append(contentsOf: "null".utf8)
    }

    /// `true` or `false`.
    package static func writeBool(_ flag: Bool, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: (flag ? "true" : "false").utf8)
    }

    /// An integer in decimal.
    package static func writeInteger(_ integer: Int64, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: String(integer).utf8)
    }

    /// A number in Swift's shortest round-tripping form (`2.5`, `3.0`, `1e+16`).
    package static func writeNumber(_ number: Double, nonFinite: NonFiniteNumbers, into bytes: inout [UInt8]) {
        if number.isFinite {
            bytes.append(contentsOf: number.description.utf8)
            return
        }
        switch nonFinite {
        case .null: writeNull(into: &bytes)
        case .string: writeString(number.isNaN ? "NaN" : number < 0 ? "-Infinity" : "Infinity", into: &bytes)
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped (`\n`, `\r`, `\t`, the
    /// others as `\u00XX`), every other character as its UTF-8.
    package static func writeString(_ text: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escape: copy them whole.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hexDigit(byte >> 4), hexDigit(byte & 0xF)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// An array: each element written by `element`, commas between.
    package static func writeArray<Elements: Sequence>(
        _ elements: Elements, into bytes: inout [UInt8], element: (Elements.Element, inout [UInt8]) -> Void
    ) {
        bytes.append(UInt8(ascii: "["))
        var first = true
        for item in elements {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            element(item, &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// An object: each member's key as a string and its value written by `value`, in the order
    /// given.
    package static func writeObject<Members: Sequence, Member>(
        _ members: Members, into bytes: inout [UInt8], value: (Member, inout [UInt8]) -> Void
    ) where Members.Element == (key: String, value: Member) {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for (key, member) in members {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            writeString(key, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            value(member, &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
