import Foundation
import PredicateLanguage

/// Writes the fields of a cursor payload: bytes, big-endian integers and doubles,
/// length-prefixed strings, and tagged sort values.
package struct CursorByteWriter {
    private(set) var output: [UInt8] = []

    package mutating func byte(_ value: UInt8) { output.append(value) }

    package mutating func bytes(_ values: [UInt8]) { output.append(contentsOf: values) }

    package mutating func integer(_ value: Int64) {
        withUnsafeBytes(of: value.bigEndian) { output.append(contentsOf: $0) }
    }

    package mutating func double(_ value: Double) { integer(Int64(bitPattern: value.bitPattern)) }

    package mutating func string(_ value: String) {
        integer(Int64(value.utf8.count))
        output.append(contentsOf: value.utf8)
    }

    /// A sort value: null, boolean, integer, double, string or date (the kinds that sort).
    package mutating func value(_ value: Value) {
        switch value {
        case .bool(let flag): byte(1); byte(flag ? 1 : 0)
        case .int(let integer): byte(2); self.integer(integer)
        case .double(let double): byte(3); self.double(double)
        case .string(let text): byte(4); string(text)
        case .date(let date): byte(5); double(date.timeIntervalSinceReferenceDate)
        default: byte(0)
        }
    }
}

/// Reads what ``CursorByteWriter`` wrote; every read returns nil past the end or on bad data.
package struct CursorByteReader {
    private let input: [UInt8]
    private var position = 0

    package init(_ input: [UInt8]) { self.input = input }

    package var isAtEnd: Bool { position == input.count }

    package mutating func byte() -> UInt8? {
        guard position < input.count else { return nil }
        defer { position += 1 }
        return input[position]
    }

    package mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, input.count - position >= count else { return nil }
        defer { position += count }
        return Array(input[position..<(position + count)])
    }

    package mutating func integer() -> Int64? {
        guard let raw = bytes(8) else { return nil }
        return raw.reduce(Int64(0)) { ($0 << 8) | Int64($1) }
    }

    package mutating func double() -> Double? {
        integer().map { Double(bitPattern: UInt64(bitPattern: $0)) }
    }

    package mutating func string() -> String? {
        guard let length = integer(), length >= 0, length <= Int64(input.count - position),
              let raw = bytes(Int(length)) else { return nil }
        return String(validating: raw, as: UTF8.self)
    }

    package mutating func value() -> Value? {
        switch byte() {
        case 0: return .null
        case 1: return byte().map { .bool($0 != 0) }
        case 2: return integer().map(Value.int)
        case 3: return double().map(Value.double)
        case 4: return string().map(Value.string)
        case 5: return double().map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        default: return nil
        }
    }
}
