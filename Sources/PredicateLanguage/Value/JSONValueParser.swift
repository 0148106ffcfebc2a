import Foundation

/// Reads JSON text straight into ``Value``s, without going through `JSONSerialization`.
///
/// Its neighbours: ``JSONValueWriter`` is its inverse; ``TypedJSONValue`` decodes the one-key
/// objects it meets (`{"$date": ...}`). QueryServer's `JSONValue` parser reads the same grammar
/// into plain JSON (no typed objects, integers kept apart), as CloudKit's wire needs.
///
/// Numbers become `.int` when integral (and within 64 bits), `.double` otherwise.
/// One-key objects spell typed values (see ``Value/init(jsonText:)``).
/// Nesting is limited to ``maximumDepth`` levels so hostile input cannot
/// overflow the stack.
struct JSONValueParser {
    /// The deepest nesting of arrays and objects accepted.
    static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses exactly one JSON value, allowing white space around it.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(ValueJSONError) -> Value {
        var parser = JSONValueParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.position < bytes.count {
            throw parser.error("unexpected text after the JSON value")
        }
        return value
    }

    private func error(_ message: String) -> ValueJSONError {
        ValueJSONError(message: message, offset: position)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(ValueJSONError) -> Value {
        guard position < bytes.count else { throw error("expected a JSON value, found the end of the input") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return .list(try parseArray())
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("expected a JSON value, found '\(Character(Unicode.Scalar(bytes[position])))'")
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(ValueJSONError) {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw error("expected '\(word)'") }
        let start = word.utf8Start
        for index in 0..<count where bytes[position + index] != start[index] {
            throw error("expected '\(word)'")
        }
        position += count
    }

    private mutating func enter() throws(ValueJSONError) {
        depth += 1
        if depth > JSONValueParser.maximumDepth {
            throw error("JSON nested deeper than \(JSONValueParser.maximumDepth) levels")
        }
    }

    private mutating func parseArray() throws(ValueJSONError) -> [Value] {
        try enter()
        defer { depth -= 1 }
        position += 1  // [
        var elements: [Value] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return elements
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard position < bytes.count else { throw error("expected ',' or ']' in an array, found the end of the input") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return elements
            } else {
                throw error("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func parseObject() throws(ValueJSONError) -> Value {
        let objectStart = position
        try enter()
        defer { depth -= 1 }
        position += 1  // {
        var members: [String: Value] = [:]
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("expected a quoted key in an object")
            }
            let key = try parseString()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw error("expected ':' after the key \"\(key)\"")
            }
            position += 1
            skipWhitespace()
            members[key] = try parseValue()
            skipWhitespace()
            guard position < bytes.count else { throw error("expected ',' or '}' in an object, found the end of the input") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "}") {
                position += 1
                break
            } else {
                throw error("expected ',' or '}' in an object")
            }
        }
        if members.count == 1, let (key, payload) = members.first, key.hasPrefix("$") {
            do {
                return try TypedJSONValue.decode(key: key, payload: payload)
            } catch {
                throw ValueJSONError(message: error.message, offset: objectStart)
            }
        }
        return .object(members)
    }

    private mutating func parseString() throws(ValueJSONError) -> String {
        position += 1  // opening quote
        let start = position
        // Fast path: no escapes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let string = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                position += 1
                return string
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            position += 1
        }
        var scalars = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: scalars, as: UTF8.self)
            }
            if byte < 0x20 {
                throw error("control character in a string (escape it)")
            }
            if byte != UInt8(ascii: "\\") {
                scalars.append(byte)
                position += 1
                continue
            }
            position += 1
            guard position < bytes.count else { break }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): scalars.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "/"): scalars.append(UInt8(ascii: "/"))
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xD800...0xDBFF).contains(code) {
                    // A high surrogate must be followed by an escaped low surrogate.
                    if position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
                        position += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid UTF-16 surrogate pair in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        throw error("unpaired UTF-16 surrogate in \\u escape")
                    }
                } else if (0xDC00...0xDFFF).contains(code) {
                    throw error("unpaired UTF-16 surrogate in \\u escape")
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                UTF8.encode(scalar) { scalars.append($0) }
            default:
                throw error("unknown escape '\\\(Character(Unicode.Scalar(escape)))' in a string")
            }
        }
        throw error("unterminated string")
    }

    private mutating func parseHex4() throws(ValueJSONError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("expected four hex digits after \\u") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("expected four hex digits after \\u")
            }
            code = code << 4 | digit
            position += 1
        }
        return code
    }

    private mutating func parseNumber() throws(ValueJSONError) -> Value {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        var isIntegerSyntax = true
        let digitsStart = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        guard position > digitsStart else { throw error("expected digits in a number") }
        if bytes[digitsStart] == UInt8(ascii: "0"), position - digitsStart > 1 {
            throw error("leading zeros are not allowed in JSON numbers")
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isIntegerSyntax = false
            position += 1
            let fractionStart = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            guard position > fractionStart else { throw error("expected digits after the decimal point") }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isIntegerSyntax = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            let exponentStart = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            guard position > exponentStart else { throw error("expected digits in the exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isIntegerSyntax, let integer = Int64(text) {
            return .int(integer)
        }
        guard let double = Double(text) else { throw error("invalid number '\(text)'") }
        if let integer = Int64(exactly: double) {
            return .int(integer)
        }
        return .double(double)
    }
}
