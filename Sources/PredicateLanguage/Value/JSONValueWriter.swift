import Foundation

/// Writes ``Value``s as JSON text, the inverse of ``JSONValueParser``: typed values as the
/// one-key objects of ``TypedJSONValue``. QueryServer writes CloudKit's wire JSON (its
/// `JSONValue`, and `{value, type}` field values) with a byte writer of its own.
struct JSONValueWriter {
    var sortedKeys: Bool
    private(set) var output = ""

    init(sortedKeys: Bool) {
        self.sortedKeys = sortedKeys
    }

    mutating func write(_ value: Value) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .int(let integer): output += String(integer)
        case .double(let double): writeDouble(double)
        case .string(let string): writeString(string)
        case .date(let date):
            output += "{\"$date\":"
            writeString(TypedJSONValue.ISO8601.string(from: date))
            output += "}"
        case .bytes(let data):
            output += "{\"$bytes\":"
            writeString(data.base64EncodedString())
            output += "}"
        case .location(let location):
            output += "{\"$location\":["
            writeDouble(location.latitude)
            output += ","
            writeDouble(location.longitude)
            if let altitude = location.altitude {
                output += ","
                writeDouble(altitude)
            }
            output += "]}"
        case .reference(let reference):
            output += "{\"$ref\":"
            if reference.zoneName == Reference.defaultZoneName {
                writeString(reference.recordName)
            } else {
                output += "["
                writeString(reference.recordName)
                output += ","
                writeString(reference.zoneName)
                output += "]"
            }
            output += "}"
        case .list(let members):
            output += "["
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                write(member)
            }
            output += "]"
        case .object(let members):
            writeObject(members)
        }
    }

    mutating func writeObject(_ members: [String: Value]) {
        output += "{"
        let keys = sortedKeys ? members.keys.sorted() : Array(members.keys)
        for (index, key) in keys.enumerated() {
            if index > 0 { output += "," }
            writeString(key)
            output += ":"
            write(members[key] ?? .null)
        }
        output += "}"
    }

    private mutating func writeDouble(_ double: Double) {
        guard double.isFinite else {
            output += "null"  // JSON has no NaN or infinity.
            return
        }
        if let integer = Int64(exactly: double), abs(double) < 1e15 {
            output += String(integer) + ".0"
        } else {
            output += "\(double)"
        }
    }

    mutating func writeString(_ string: String) {
        output += "\""
        // Most strings need no escaping: append them whole.
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output += string
            output += "\""
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 {
                    output += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
