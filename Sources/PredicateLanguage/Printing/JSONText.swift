import Foundation

/// JSON text of a value, with object keys sorted, for printing `.object` constants
/// as `CAST("<json>", "NSDictionary")`.
///
/// Kinds JSON has no form for print as their nearest JSON counterpart and do not
/// read back as the same kind: a date as its seconds since 2001-01-01 UTC, bytes as a
/// base64 string, a location as `[latitude, longitude(, altitude)]`, a reference as its
/// record name, and NaN or infinite doubles as `null`.
enum JSONText {
    /// The JSON text of the value.
    static func encode(_ value: Value) -> String {
        var output = ""
        write(value, to: &output)
        return output
    }

    private static func write(_ value: Value, to output: inout String) {
        switch value {
        case .null:
            output += "null"
        case .bool(let flag):
            output += flag ? "true" : "false"
        case .int(let number):
            output += String(number)
        case .double(let number):
            output += number.isFinite ? ValueFormatting.number(number) : "null"
        case .string(let text):
            writeString(text, to: &output)
        case .date(let date):
            output += ValueFormatting.number(date.timeIntervalSinceReferenceDate)
        case .bytes(let data):
            writeString(data.base64EncodedString(), to: &output)
        case .location(let location):
            var coordinates: [Value] = [.double(location.latitude), .double(location.longitude)]
            if let altitude = location.altitude { coordinates.append(.double(altitude)) }
            write(.list(coordinates), to: &output)
        case .reference(let reference):
            writeString(reference.recordName, to: &output)
        case .list(let members):
            output += "["
            for (position, member) in members.enumerated() {
                if position > 0 { output += "," }
                write(member, to: &output)
            }
            output += "]"
        case .object(let fields):
            output += "{"
            for (position, key) in fields.keys.sorted().enumerated() {
                if position > 0 { output += "," }
                writeString(key, to: &output)
                output += ":"
                write(fields[key] ?? .null, to: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 {
                    output += "\\u" + ValueFormatting.hex(scalar.value, digits: 4)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
