import Foundation

extension JSONValue {
    /// How deeply arrays and objects may nest in a request (deeper is refused, never a crash).
    static let maximumDepth = 256

    /// Parses JSON text (UTF-8). Integers without fraction or exponent that fit in 64 bits stay
    /// exact (``integer(_:)``). Throws ``JSONParsingError`` with the byte offset of the problem.
    ///
    /// ```swift
    /// try JSONValue(parsing: Array(#"{"resultsLimit": 10}"#.utf8))["resultsLimit"]   // .integer(10)
    /// ```
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParsingError) {
        var parser = JSONParser(bytes: Array(bytes))
        parser.skipWhitespace()
        self = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == parser.bytes.count else { throw parser.error("unexpected text after the JSON value") }
    }
}

/// Why a text is not JSON, and where.
public struct JSONParsingError: Error, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    /// The byte offset where the parser stopped.
    public let offset: Int
    /// The message with its offset: `expected ':' after a key at byte 12`.
    public var description: String { "\(message) at byte \(offset)" }
}

/// A recursive-descent JSON parser over bytes, into ``JSONValue``. PredicateLanguage's
/// `JSONValueParser` reads the same grammar into `Value`s (typed one-key objects decoded);
/// this one keeps plain JSON, integers apart, as the CloudKit wire needs.
private struct JSONParser {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func error(_ message: String) -> JSONParsingError { JSONParsingError(message: message, offset: position) }

    mutating func skipWhitespace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    mutating func value(depth: Int) throws(JSONParsingError) -> JSONValue {
        guard depth < JSONValue.maximumDepth else { throw error("JSON nested deeper than \(JSONValue.maximumDepth) levels") }
        guard position < bytes.count else { throw error("the JSON ends where a value was expected") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected character where a value was expected")
        }
    }

    mutating func literal(_ word: String) throws(JSONParsingError) {
        for byte in word.utf8 {
            guard position < bytes.count, bytes[position] == byte else { throw error("expected \(word)") }
            position += 1
        }
    }

    mutating func object(depth: Int) throws(JSONParsingError) -> JSONValue {
        position += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
            let key = try string()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
            position += 1
            skipWhitespace()
            members[key] = try value(depth: depth + 1)
            skipWhitespace()
            guard position < bytes.count else { throw error("the JSON ends inside an object") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
            throw error("expected ',' or '}' in an object")
        }
    }

    mutating func array(depth: Int) throws(JSONParsingError) -> JSONValue {
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            guard position < bytes.count else { throw error("the JSON ends inside an array") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(elements) }
            throw error("expected ',' or ']' in an array")
        }
    }

    mutating func string() throws(JSONParsingError) -> String {
        position += 1
        var scalars: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: scalars, as: UTF8.self) else { throw error("a string is not valid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hexQuad()
                    if (0xD800...0xDBFF).contains(code) {
                        // A surrogate pair: the low half must follow as another \u escape.
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                            throw error("a lone surrogate in a \\u escape")
                        }
                        position += 2
                        let low = try hexQuad()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone surrogate in a \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw error("a lone surrogate in a \\u escape")
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("an invalid \\u escape") }
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw error("an invalid escape in a string")
                }
            case 0..<0x20:
                throw error("a control character inside a string")
            default:
                scalars.append(byte)
            }
        }
        throw error("the JSON ends inside a string")
    }

    mutating func hexQuad() throws(JSONParsingError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("a \\u escape needs four hex digits") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            position += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("a \\u escape needs four hex digits")
            }
            code = code << 4 | UInt32(digit)
        }
        return code
    }

    mutating func number() throws(JSONParsingError) -> JSONValue {
        let start = position
        var isInteger = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) else { throw error("a number needs digits") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) else { throw error("a fraction needs digits") }
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) else { throw error("an exponent needs digits") }
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let number = Double(text) else { throw error("a number out of range") }
        return .number(number)
    }
}
