import Foundation

/// The package's one JSON reader: a recursive-descent parser over UTF-8 bytes that builds any
/// `JSONTree` as it reads, so that reading into ``Value`` (the hot path of `query import`)
/// makes no intermediate tree, and the server reads ``JSONValue`` with the same code.
///
/// It reads exactly one JSON value (RFC 8259), with white space around it. Every error is a
/// ``JSONParsingError`` with what was wrong and the byte offset where reading stopped. Nesting
/// deeper than the options' `JSONReadingOptions/maximumDepth` is an error, so hostile input
/// cannot overflow the stack. Numbers reach the tree as `JSONTree/jsonInteger(_:)` when they
/// have neither fraction nor exponent and fit in 64 bits, as `JSONTree/jsonNumber(_:)`
/// otherwise; the tree decides what they become.
///
/// ```swift
/// let value = try bytes.withJSONBuffer { buffer throws(JSONParsingError) in
///     try JSONReader<JSONValue>.read(buffer, options: JSONValue.readingOptions)
/// }
/// ```
package struct JSONReader<Tree: JSONTree> {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0

    private let options: JSONReadingOptions

    private init(bytes: UnsafeBufferPointer<UInt8>, options: JSONReadingOptions) {
        self.bytes = bytes
        self.options = options
    }

    /// Reads exactly one JSON value, allowing white space around it.
    package static func read(_ bytes: UnsafeBufferPointer<UInt8>, options: JSONReadingOptions) throws(JSONParsingError) -> Tree {
        var reader = JSONReader(bytes: bytes, options: options)
        reader.skipWhitespace()
        let value = try reader.parseValue()
        reader.skipWhitespace()
        if reader.position < bytes.count {
            throw reader.error("unexpected text after the JSON value")
        }
        return value
    }

    private func error(_ message: String) -> JSONParsingError {
        JSONParsingError(message: message, offset: position)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONParsingError) -> Tree {
        guard position < bytes.count else { throw error("expected a JSON value, found the end of the input") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return Tree.jsonArray(try parseArray())
        case UInt8(ascii: "\""): return Tree.jsonString(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return Tree.jsonBool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return Tree.jsonBool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return Tree.jsonNull()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("expected a JSON value, found '\(Character(Unicode.Scalar(bytes[position])))'")
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONParsingError) {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw error("expected '\(word)'") }
        let start = word.utf8Start
        for index in 0..<count where bytes[position + index] != start[index] {
            throw error("expected '\(word)'")
        }
        position += count
    }

    private mutating func enter() throws(JSONParsingError) {
        depth += 1
        if depth > options.maximumDepth {
            throw error("JSON nested deeper than \(options.maximumDepth) levels")
        }
    }

    private mutating func parseArray() throws(JSONParsingError) -> [Tree] {
        try enter()
        defer { depth -= 1 }
        position += 1  // [
        var elements: [Tree] = []
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

    private mutating func parseObject() throws(JSONParsingError) -> Tree {
        let objectStart = position
        try enter()
        defer { depth -= 1 }
        position += 1  // {
        var members: [String: Tree] = [:]
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return try Tree.jsonObject(members)
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
        do {
            return try Tree.jsonObject(members)
        } catch {
            throw JSONParsingError(message: error.message, offset: objectStart)
        }
    }

    private mutating func parseString() throws(JSONParsingError) -> String {
        position += 1  // opening quote
        let start = position
        // Fast path: no escapes. `highBits` gathers every byte's bits: below 0x80, the string is
        // ASCII, valid UTF-8 without a check.
        var highBits: UInt8 = 0
        while position < bytes.count {
            let byte = bytes[position]
            highBits |= byte
            if byte == UInt8(ascii: "\"") {
                let string = try makeString(UnsafeBufferPointer(rebasing: bytes[start..<position]), start: start, isASCII: highBits < 0x80)
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
                let string = try scalars.withUnsafeBufferPointer { buffer throws(JSONParsingError) in try makeString(buffer, start: start) }
                position += 1
                return string
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

    /// A string's bytes as a string, by the options' rule for bytes that are not UTF-8.
    /// Text known to be ASCII skips the check: `String(validating:as:)` is generic in the
    /// standard library and looked its metadata up at run time for every string (reading a
    /// `records/modify` body of 10 records took 26.7 µs with it, 17.7 µs without: `query-bench
    /// parsing`).
    private func makeString(_ utf8: UnsafeBufferPointer<UInt8>, start: Int, isASCII: Bool = false) throws(JSONParsingError) -> String {
        if isASCII { return String(decoding: utf8, as: UTF8.self) }
        switch options.invalidUTF8 {
        case .repair:
            return String(decoding: utf8, as: UTF8.self)
        case .refuse:
            guard let string = String(validating: utf8, as: UTF8.self) else {
                throw JSONParsingError(message: "a string is not valid UTF-8", offset: start)
            }
            return string
        }
    }

    private mutating func parseHex4() throws(JSONParsingError) -> UInt32 {
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

    private mutating func parseNumber() throws(JSONParsingError) -> Tree {
        let start = position
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        var isIntegerSyntax = true
        let digitsStart = position
        // Integers accumulate as they are read (negatively, so that Int64.min fits); text only
        // for the rest.
        var integer: Int64 = 0
        var overflowed = false
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            let (times10, overflow1) = integer.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.subtractingReportingOverflow(Int64(bytes[position] - UInt8(ascii: "0")))
            overflowed = overflowed || overflow1 || overflow2
            integer = next
            position += 1
        }
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
        if isIntegerSyntax, !overflowed {
            if negative { return Tree.jsonInteger(integer) }
            if integer != .min { return Tree.jsonInteger(-integer) }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let double = Double(text) else { throw error("invalid number '\(text)'") }
        return Tree.jsonNumber(double)
    }
}
