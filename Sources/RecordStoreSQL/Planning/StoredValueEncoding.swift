import Foundation
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore

/// How field values are stored in SQL columns: strings as text in NFC (the form every
/// comparison compares; a client's other spelling is kept beside it, ``StoredSpelling``), integers and booleans
/// as integers, doubles as reals, dates as seconds since 2001 (reals, so they sort),
/// bytes as blobs, locations and references as text. A list is stored whole, as typed JSON,
/// in the record's row, and member by member (each encoded here) in the list table.
@_spi(StorageEngine) public enum StoredValueEncoding {
    /// The stored form of a scalar value of a field type.
    @_spi(StorageEngine) public static func encode(_ value: Value) -> SQLValue {
        switch value {
        case .null, .object: return .null
        case .bool(let flag): return .integer(flag ? 1 : 0)
        case .int(let integer): return .integer(integer)
        case .double(let double): return double.isNaN ? .null : .real(double)
        case .string(let string): return .text(TextFolding.normalized(string))
        case .date(let date): return .real(date.timeIntervalSinceReferenceDate)
        case .bytes(let data): return .blob(data)
        case .location(let location): return .text(encodeLocation(location))
        case .reference(let reference): return .text(encodeReference(reference))
        case .list(let members): return .integer(Int64(members.count))
        }
    }

    /// `latitude,longitude` or `latitude,longitude,altitude`, each number printed exactly.
    @_spi(StorageEngine) public static func encodeLocation(_ location: Location) -> String {
        var text = "\(location.latitude),\(location.longitude)"
        if let altitude = location.altitude { text += ",\(altitude)" }
        return text
    }

    /// Parses ``encodeLocation(_:)``'s form, or the bit-pattern form of a location a dialect
    /// rebuilds from its number columns (``bitPatternLocationPrefix``).
    @_spi(StorageEngine) public static func decodeLocation(_ text: String) -> Location? {
        if text.hasPrefix(bitPatternLocationPrefix) { return decodeBitPatternLocation(text) }
        let parts = text.split(separator: ",").compactMap { Double($0) }
        guard parts.count >= 2 else { return nil }
        return Location(latitude: parts[0], longitude: parts[1], altitude: parts.count > 2 ? parts[2] : nil)
    }

    /// The first character of a location in its bit-pattern form: `#`, then the IEEE 754 bits
    /// of the latitude and of the longitude, 16 hexadecimal digits each, most significant first
    /// (what PostgreSQL's `encode(float8send(x), 'hex')` writes). A dialect that keeps a
    /// location in its number columns only reads it back in this form, exact whatever the
    /// database's settings for printing numbers.
    ///
    /// ```swift
    /// StoredValueEncoding.decodeLocation("#40486d3c89f40a284002ca57a786c227")   // 48.85341, 2.3488
    /// ```
    @_spi(StorageEngine) public static let bitPatternLocationPrefix = "#"

    private static func decodeBitPatternLocation(_ text: String) -> Location? {
        let digits = text.utf8.dropFirst()
        guard digits.count == 32,
              let latitude = UInt64(String(decoding: digits.prefix(16), as: UTF8.self), radix: 16),
              let longitude = UInt64(String(decoding: digits.suffix(16), as: UTF8.self), radix: 16) else { return nil }
        return Location(latitude: Double(bitPattern: latitude), longitude: Double(bitPattern: longitude))
    }

    /// The zone name's length in UTF-8 bytes, a colon, the zone name, then the record name.
    @_spi(StorageEngine) public static func encodeReference(_ reference: Reference) -> String {
        "\(reference.zoneName.utf8.count):\(reference.zoneName)\(reference.recordName)"
    }

    /// Parses ``encodeReference(_:)``'s form.
    @_spi(StorageEngine) public static func decodeReference(_ text: String) -> Reference? {
        guard let colon = text.utf8.firstIndex(of: UInt8(ascii: ":")),
              let length = Int(String(text[..<colon])) else { return nil }
        let rest = text.utf8[text.utf8.index(after: colon)...]
        guard rest.count >= length else { return nil }
        let split = rest.index(rest.startIndex, offsetBy: length)
        guard let zone = String(rest[..<split]), let name = String(rest[split...]) else { return nil }
        return Reference(recordName: name, zoneName: zone)
    }

    /// A small code for each scalar type, passed to SQL functions that decode stored values.
    @_spi(StorageEngine) public static func typeCode(_ type: FieldType) -> Int {
        switch type {
        case .string: 1
        case .int64: 2
        case .double: 3
        case .bool: 4
        case .date: 5
        case .bytes: 6
        case .location: 7
        case .reference: 8
        case .list(let element): typeCode(element)
        }
    }

    /// The scalar type of a type code.
    @_spi(StorageEngine) public static func fieldType(code: Int) -> FieldType? {
        switch code {
        case 1: .string
        case 2: .int64
        case 3: .double
        case 4: .bool
        case 5: .date
        case 6: .bytes
        case 7: .location
        case 8: .reference
        default: nil
        }
    }

    /// The stored form of a constant for a comparison with a field of the type, when
    /// SQL compares the two exactly as the evaluator does; nil otherwise.
    ///
    /// Integers and doubles compare exactly, as `NSNumber` compares them, on every database: an
    /// integer field meets a double only when the double is an integer (bound as one), and a
    /// double field an integer only when the double type holds it exactly. PostgreSQL would
    /// otherwise compare a `bigint` with a `double precision` in double precision, so that
    /// 9007199254740993 equalled 9007199254740992.0. Other pairs are left to the evaluator.
    ///
    /// ```swift
    /// StoredValueEncoding.nativeArgument(.double(3), fieldType: .int64)     // .integer(3)
    /// StoredValueEncoding.nativeArgument(.double(2.5), fieldType: .int64)   // nil
    /// ```
    @_spi(StorageEngine) public static func nativeArgument(_ constant: Value, fieldType: FieldType) -> SQLValue? {
        switch (fieldType, constant) {
        case (.int64, .int), (.int64, .bool), (.double, .bool), (.bool, .int), (.bool, .bool):
            return encode(constant)
        case (.double, .int(let integer)):
            return Double(exactly: integer) == nil ? nil : encode(constant)
        case (.int64, .double(let double)), (.bool, .double(let double)):
            return Int64(exactly: double).map(SQLValue.integer)
        case (.double, .double(let double)):
            return double.isNaN ? nil : .real(double)
        case (.string, .string):
            return encode(constant)
        case (.date, .date):
            return encode(constant)
        default:
            return nil
        }
    }

    /// The value a stored column holds, read as a field of the type (a scalar type, or a list's
    /// element type); the inverse of ``encode(_:)``.
    ///
    /// ```swift
    /// StoredValueEncoding.decode(.real(0), as: .date)   // .date(2001-01-01 00:00:00 UTC)
    /// ```
    @_spi(StorageEngine) public static func decode(_ stored: SQLValue, as type: FieldType) -> Value {
        switch (stored, type) {
        case (.null, _):
            return .null
        case (.text(let text), .string):
            return .string(text)
        case (.integer(let integer), .bool):
            return .bool(integer != 0)
        case (.integer(let integer), .int64), (.integer(let integer), .double):
            return .int(integer)
        case (.real(let double), .int64), (.real(let double), .double):
            return .double(double)
        case (.real(let seconds), .date):
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case (.integer(let seconds), .date):
            return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        case (.blob(let data), .bytes):
            return .bytes(data)
        case (.text(let text), .location):
            return decodeLocation(text).map(Value.location) ?? .null
        case (.text(let text), .reference):
            return decodeReference(text).map(Value.reference) ?? .null
        case (_, .list):
            return .null
        case (.integer(let integer), _):
            return .int(integer)
        case (.real(let double), _):
            return .double(double)
        case (.text(let text), _):
            return .string(text)
        case (.blob(let data), _):
            return .bytes(data)
        }
    }
}
