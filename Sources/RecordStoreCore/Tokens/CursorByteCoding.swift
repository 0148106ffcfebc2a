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

    /// A value: null, boolean, integer, double, string, date (the kinds that sort), bytes, a
    /// location, a reference or a list of these, each exactly (see ``canWrite(_:)``). An object
    /// writes as null.
    package mutating func value(_ value: Value) {
        switch value {
        case .bool(let flag): byte(1); byte(flag ? 1 : 0)
        case .int(let integer): byte(2); self.integer(integer)
        case .double(let double): byte(3); self.double(double)
        case .string(let text): byte(4); string(text)
        case .date(let date): byte(5); double(date.timeIntervalSinceReferenceDate)
        case .bytes(let data): byte(6); integer(Int64(data.count)); bytes(Array(data))
        case .location(let location):
            byte(7)
            double(location.latitude)
            double(location.longitude)
            byte(location.altitude == nil ? 0 : 1)
            if let altitude = location.altitude { double(altitude) }
        case .reference(let reference): byte(8); string(reference.recordName); string(reference.zoneName)
        case .list(let members):
            byte(9)
            integer(Int64(members.count))
            for member in members { self.value(member) }
        case .null, .object: byte(0)
        }
    }

    /// Whether ``value(_:)`` writes a value exactly: every kind but objects (and lists holding one).
    package static func canWrite(_ value: Value) -> Bool {
        switch value {
        case .object: false
        case .list(let members): members.allSatisfy(canWrite)
        default: true
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
        case 6:
            guard let count = integer(), count >= 0, count <= Int64(input.count - position), let raw = bytes(Int(count)) else { return nil }
            return .bytes(Data(raw))
        case 7:
            guard let latitude = double(), let longitude = double(), let hasAltitude = byte() else { return nil }
            guard hasAltitude == 1 else { return hasAltitude == 0 ? .location(Location(latitude: latitude, longitude: longitude)) : nil }
            return double().map { .location(Location(latitude: latitude, longitude: longitude, altitude: $0)) }
        case 8:
            guard let recordName = string(), let zoneName = string() else { return nil }
            return .reference(Reference(recordName: recordName, zoneName: zoneName))
        case 9:
            // Each member takes at least one byte: a count beyond what is left is malformed.
            guard let count = integer(), count >= 0, count <= Int64(input.count - position) else { return nil }
            var members: [Value] = []
            for _ in 0..<count {
                guard let member = value() else { return nil }
                members.append(member)
            }
            return .list(members)
        default: return nil
        }
    }
}
