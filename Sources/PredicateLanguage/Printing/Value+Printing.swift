import Foundation

extension Value {
    /// The value as a constant in a format string, in canonical form.
    ///
    /// Strings print in double quotes with escapes, booleans as `1` and `0`, null
    /// as `nil`, lists as `{1, 2}`, and the kinds without a literal syntax as casts:
    /// `CAST(736214400.000000, "NSDate")`, `CAST("AAE=", "NSData")`,
    /// `CAST({37.331913, -122.03021}, "CLLocation")`, `CAST("employee-42", "CKReference")`,
    /// `CAST("{\"a\":1}", "NSDictionary")`.
    ///
    /// ```swift
    /// Value.string("say \"hi\"").formatLiteral   // "say \"hi\""
    /// Value.list([1, 2]).formatLiteral            // {1, 2}
    /// Value.double(2.5e-7).formatLiteral          // 2.5e-07
    /// ```
    public var formatLiteral: String {
        switch self {
        case .null:
            return "nil"
        case .bool(let value):
            return value ? "1" : "0"
        case .int(let value):
            return String(value)
        case .double(let value):
            return ValueFormatting.number(value)
        case .string(let value):
            return ValueFormatting.quoted(value)
        case .date(let value):
            return "CAST(\(ValueFormatting.referenceDateSeconds(value)), \"NSDate\")"
        case .bytes(let value):
            return "CAST(\(ValueFormatting.quoted(value.base64EncodedString())), \"NSData\")"
        case .location(let value):
            var coordinates = [ValueFormatting.number(value.latitude), ValueFormatting.number(value.longitude)]
            if let altitude = value.altitude { coordinates.append(ValueFormatting.number(altitude)) }
            return "CAST({\(coordinates.joined(separator: ", "))}, \"CLLocation\")"
        case .reference(let value):
            if value.zoneName == Reference.defaultZoneName {
                return "CAST(\(ValueFormatting.quoted(value.recordName)), \"CKReference\")"
            }
            return "CAST({\(ValueFormatting.quoted(value.recordName)), \(ValueFormatting.quoted(value.zoneName))}, \"CKReference\")"
        case .list(let members):
            return "{\(members.map(\.formatLiteral).joined(separator: ", "))}"
        case .object:
            return "CAST(\(ValueFormatting.quoted(self.jsonText())), \"NSDictionary\")"
        }
    }
}

/// The pieces of constant printing shared by values, function names and cast types.
enum ValueFormatting {
    /// The string in double quotes, as Apple prints it: `"` and `\` escaped and every other
    /// character as it is (a tab prints as a tab), except three: a line feed and a carriage return
    /// print as `\n` and `\r` (Apple prints those raw too, but its parser, like this one, rejects
    /// a raw line break inside quotes: escaping them keeps printing then parsing exact), and NUL
    /// prints as `\u0000` (a raw NUL would cut the text short wherever it meets a C string).
    static func quoted(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\u{0}": result += "\\u0000"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A double: integral values below 1e15 in magnitude without a fraction (`3`),
    /// others in Swift's shortest round-trip form (`0.1`, `2.5e-07`, `1e+100`),
    /// and NaN and infinities as casts of strings to `NSNumber`.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "CAST(\"nan\", \"NSNumber\")" }
        if value.isInfinite { return value < 0 ? "CAST(\"-inf\", \"NSNumber\")" : "CAST(\"inf\", \"NSNumber\")" }
        if value.rounded(.towardZero) == value, abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    /// Seconds since 2001-01-01 00:00:00 UTC with six decimals: `736214400.000000`.
    static func referenceDateSeconds(_ date: Date) -> String {
        let seconds = date.timeIntervalSinceReferenceDate
        guard seconds.isFinite else { return number(seconds) }
        // Fixed-point with six decimals, computed without locale-dependent formatting.
        let microseconds = (seconds * 1_000_000).rounded()
        guard abs(microseconds) < 9e18 else { return String(format: "%.6f", seconds) }
        let total = Int64(microseconds)
        let sign = total < 0 ? "-" : ""
        let magnitude = total.magnitude
        let whole = magnitude / 1_000_000
        let fraction = String(magnitude % 1_000_000)
        return "\(sign)\(whole).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
    }
}
