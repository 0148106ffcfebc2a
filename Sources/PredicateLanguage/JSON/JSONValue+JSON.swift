extension JSONValue {
    /// How the server reads request bodies: arrays and objects nest at most 256 deep, and a
    /// string that is not UTF-8 is refused.
    package static let readingOptions = JSONReadingOptions(maximumDepth: 256, invalidUTF8: .refuse)

    /// Parses JSON text (UTF-8) with the package's JSON reader (`JSONReader`). Integers without
    /// fraction or exponent that fit in 64 bits stay exact (``integer(_:)``). Throws
    /// ``JSONParsingError`` with the byte offset of the problem.
    ///
    /// ```swift
    /// try JSONValue(parsing: Array(#"{"resultsLimit": 10}"#.utf8))["resultsLimit"]   // .integer(10)
    /// ```
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParsingError) {
        self = try bytes.withJSONBuffer { buffer throws(JSONParsingError) in try JSONReader<JSONValue>.read(buffer, options: Self.readingOptions) }
    }

    /// The value as compact JSON text in UTF-8 (object keys in no particular order), written by
    /// the package's JSON writer (`JSONWriter`). Numbers that JSON cannot spell (infinities,
    /// NaN) are written as the strings `"Infinity"`, `"-Infinity"` and `"NaN"`.
    ///
    /// ```swift
    /// String(decoding: JSONValue.array([.integer(1), .string("x")]).jsonBytes(), as: UTF8.self)   // [1,"x"]
    /// ```
    public func jsonBytes() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        write(into: &bytes)
        return bytes
    }

    /// Appends the value's JSON to `bytes`.
    package func write(into bytes: inout [UInt8]) {
        switch self {
        case .null: JSONWriter.writeNull(into: &bytes)
        case .bool(let flag): JSONWriter.writeBool(flag, into: &bytes)
        case .integer(let integer): JSONWriter.writeInteger(integer, into: &bytes)
        case .number(let number): JSONWriter.writeNumber(number, nonFinite: .string, into: &bytes)
        case .string(let text): JSONWriter.writeString(text, into: &bytes)
        case .array(let elements): JSONWriter.writeArray(elements, into: &bytes) { element, bytes in element.write(into: &bytes) }
        case .object(let members): JSONWriter.writeObject(members, into: &bytes) { member, bytes in member.write(into: &bytes) }
        }
    }
}

extension JSONValue: JSONTree {
    package static func jsonNull() -> JSONValue { .null }
    package static func jsonBool(_ flag: Bool) -> JSONValue { .bool(flag) }
    package static func jsonInteger(_ integer: Int64) -> JSONValue { .integer(integer) }
    package static func jsonNumber(_ number: Double) -> JSONValue { .number(number) }
    package static func jsonString(_ text: String) -> JSONValue { .string(text) }
    package static func jsonArray(_ elements: [JSONValue]) -> JSONValue { .array(elements) }
    package static func jsonObject(_ members: [String: JSONValue]) -> JSONValue { .object(members) }
}
