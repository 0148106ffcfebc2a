import Foundation

extension Value {
    /// Reads a value from JSON text; throws ``ValueJSONError``.
    ///
    /// Numbers become integers when integral, doubles otherwise. One-key objects
    /// spell typed values: `{"$date": "2024-05-01T12:00:00Z"}`,
    /// `{"$location": [latitude, longitude]}`, `{"$ref": "recordName"}`,
    /// `{"$bytes": "base64"}`.
    ///
    /// ```swift
    /// let value = try Value(jsonText: #"{"name": "Paris", "population": 2148000}"#)
    /// // .object(["name": .string("Paris"), "population": .int(2148000)])
    /// ```
    public init(jsonText: String) throws {
        var text = jsonText
        self = try text.withUTF8 { buffer in try JSONValueParser.parse(buffer) }
    }

    /// Reads a value from JSON bytes (UTF-8). See ``init(jsonText:)``.
    public init(jsonBytes: some Collection<UInt8>) throws {
        let parsed: Value? = try jsonBytes.withContiguousStorageIfAvailable { buffer in
            try JSONValueParser.parse(buffer)
        }
        if let parsed {
            self = parsed
        } else {
            let copy = Array(jsonBytes)
            self = try copy.withUnsafeBufferPointer { buffer in try JSONValueParser.parse(buffer) }
        }
    }

    /// The value as JSON text, with typed values as one-key objects (see ``init(jsonText:)``).
    /// Integral doubles print with a fraction (`3.0`); note that ``init(jsonText:)``
    /// reads every integral number back as an integer (which equals the double).
    ///
    /// ```swift
    /// Value.list([1, "a", nil]).jsonText()   // [1,"a",null]
    /// ```
    public func jsonText(sortedKeys: Bool = true) -> String {
        var writer = JSONValueWriter(sortedKeys: sortedKeys)
        writer.write(self)
        return writer.output
    }

    /// A dictionary of values as a JSON object.
    public static func jsonText(of object: [String: Value], sortedKeys: Bool = true) -> String {
        var writer = JSONValueWriter(sortedKeys: sortedKeys)
        writer.writeObject(object)
        return writer.output
    }

    /// A string as a quoted, escaped JSON string.
    public static func jsonQuoted(_ string: String) -> String {
        var writer = JSONValueWriter(sortedKeys: true)
        writer.writeString(string)
        return writer.output
    }
}
