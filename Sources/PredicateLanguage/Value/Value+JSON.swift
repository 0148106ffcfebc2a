import Foundation

extension Value {
    /// How the command line reads JSON into values: arrays and objects nest at most 512 deep,
    /// and bytes that are not UTF-8 inside a string become U+FFFD.
    package static let jsonReadingOptions = JSONReadingOptions(maximumDepth: 512, invalidUTF8: .repair)

    /// Reads a value from JSON text; throws ``JSONParsingError``.
    ///
    /// Numbers become integers when integral, doubles otherwise. One-key objects
    /// spell typed values: `{"$date": "2024-05-01T12:00:00Z"}`,
    /// `{"$location": [latitude, longitude]}`, `{"$ref": "recordName"}`,
    /// `{"$bytes": "base64"}`. The package's one JSON reader (`JSONReader`) reads it,
    /// straight into values.
    ///
    /// ```swift
    /// let value = try Value(jsonText: #"{"name": "Paris", "population": 2148000}"#)
    /// // .object(["name": .string("Paris"), "population": .int(2148000)])
    /// ```
    public init(jsonText: String) throws {
        var text = jsonText
        self = try text.withUTF8 { buffer throws(JSONParsingError) in try JSONReader<Value>.read(buffer, options: Self.jsonReadingOptions) }
    }

    /// Reads a value from JSON bytes (UTF-8). See ``init(jsonText:)``.
    public init(jsonBytes: some Collection<UInt8>) throws {
        self = try jsonBytes.withJSONBuffer { buffer throws(JSONParsingError) in try JSONReader<Value>.read(buffer, options: Self.jsonReadingOptions) }
    }

    /// The value as JSON text, with typed values as one-key objects (see ``init(jsonText:)``).
    /// Integral doubles print with a fraction (`3.0`); note that ``init(jsonText:)``
    /// reads every integral number back as an integer (which equals the double). Numbers JSON
    /// cannot spell (infinities, NaN) are `null`.
    ///
    /// ```swift
    /// Value.list([1, "a", nil]).jsonText()   // [1,"a",null]
    /// ```
    public func jsonText(sortedKeys: Bool = true) -> String {
        var bytes: [UInt8] = []
        write(into: &bytes, sortedKeys: sortedKeys)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A dictionary of values as a JSON object.
    ///
    /// ```swift
    /// Value.jsonText(of: ["b": 1, "a": "x"])   // {"a":"x","b":1}
    /// ```
    public static func jsonText(of object: [String: Value], sortedKeys: Bool = true) -> String {
        var bytes: [UInt8] = []
        writeObject(object, sortedKeys: sortedKeys, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A string as a quoted, escaped JSON string.
    ///
    /// ```swift
    /// Value.jsonQuoted("a\"b")   // "a\"b" with its quotes
    /// ```
    public static func jsonQuoted(_ string: String) -> String {
        var bytes: [UInt8] = []
        JSONWriter.writeString(string, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the value's JSON (typed values as `TypedJSONValue`'s one-key objects) to `bytes`.
    func write(into bytes: inout [UInt8], sortedKeys: Bool) {
        switch self {
        case .null: JSONWriter.writeNull(into: &bytes)
        case .bool(let flag): JSONWriter.writeBool(flag, into: &bytes)
        case .int(let integer): JSONWriter.writeInteger(integer, into: &bytes)
        case .double(let double): JSONWriter.writeNumber(double, nonFinite: .null, into: &bytes)
        case .string(let string): JSONWriter.writeString(string, into: &bytes)
        case .list(let members):
            JSONWriter.writeArray(members, into: &bytes) { member, bytes in member.write(into: &bytes, sortedKeys: sortedKeys) }
        case .object(let members):
            Self.writeObject(members, sortedKeys: sortedKeys, into: &bytes)
        case .date, .bytes, .location, .reference:
            TypedJSONValue.write(self, into: &bytes)
        }
    }

    private static func writeObject(_ members: [String: Value], sortedKeys: Bool, into bytes: inout [UInt8]) {
        let write: (Value, inout [UInt8]) -> Void = { member, bytes in member.write(into: &bytes, sortedKeys: sortedKeys) }
        if sortedKeys {
            JSONWriter.writeObject(members.sorted { $0.key < $1.key }, into: &bytes, value: write)
        } else {
            JSONWriter.writeObject(members, into: &bytes, value: write)
        }
    }
}

extension Value: JSONTree {
    package static func jsonNull() -> Value { .null }
    package static func jsonBool(_ flag: Bool) -> Value { .bool(flag) }
    package static func jsonInteger(_ integer: Int64) -> Value { .int(integer) }
    /// Integral numbers are integers here (`1e3` is `1000`), others doubles.
    package static func jsonNumber(_ number: Double) -> Value {
        if let integer = Int64(exactly: number) { return .int(integer) }
        return .double(number)
    }
    package static func jsonString(_ text: String) -> Value { .string(text) }
    package static func jsonArray(_ elements: [Value]) -> Value { .list(elements) }
    /// A one-key object whose key starts with `$` may be a typed value (`TypedJSONValue`).
    package static func jsonObject(_ members: [String: Value]) throws(JSONParsingError) -> Value {
        if members.count == 1, let (key, payload) = members.first, key.hasPrefix("$") {
            return try TypedJSONValue.decode(key: key, payload: payload)
        }
        return .object(members)
    }
}
