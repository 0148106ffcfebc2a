// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The members of a JSON object being decoded (``JSONValueDecoder``): a member that is absent or
/// null is missing (`keyNotFound`, `valueNotFound`), one of the wrong kind a `typeMismatch`, each
/// naming what the member should be.
///
/// ```swift
/// let container = try decoder.container(keyedBy: CodingKeys.self)
/// let limit = try container.decodeIfPresent(Int64.self, forKey: .resultsLimit)   // nil when absent or null
/// ```
struct JSONValueKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    /// Whether the member is null or absent (both are missing in a request).
    func decodeNil(forKey key: Key) throws -> Bool { members[key.stringValue]?.isNull ?? true }

    /// The member, or the error naming what it should have been.
    private func member(_ key: Key, expected: @autoclosure () -> String) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            let expected = expected()
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing (\(expected))",
                                                       underlyingError: RequestMismatch(expected: expected, actual: nil)))
        }
        return value
    }

    /// The decoder of a member, for a type (nil: a nested container).
    private func decoder(_ key: Key, type: Any.Type?, expected: String) throws -> JSONValueDecoder {
        let value = try member(key, expected: jsonExpectation(of: type) ?? expected)
        return JSONValueDecoder(value: value, codingPath: codingPath + [key], type: type, nullIsMissing: true)
    }

    private func scalar<T: JSONScalar>(_ key: Key) throws -> T {
        let value = try member(key, expected: T.expectation)
        guard let scalar = T.scalar(value) else { throw mismatch(value, T.self, key) }
        return scalar
    }

    private func scalarIfPresent<T: JSONScalar>(_ key: Key) throws -> T? {
        guard let value = members[key.stringValue], !value.isNull else { return nil }
        guard let scalar = T.scalar(value) else { throw mismatch(value, T.self, key) }
        return scalar
    }

    /// The error of a scalar member that is not a `T` (its path made only then).
    private func mismatch<T: JSONScalar>(_ value: JSONValue, _ type: T.Type, _ key: Key) -> DecodingError {
        JSONValueDecoder.mismatch(value, type, at: codingPath + [key], expected: T.expectation, nullIsMissing: true)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try scalar(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try scalar(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try scalar(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try scalar(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try scalar(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try scalar(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try scalar(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try scalar(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try scalar(key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try T(from: decoder(key, type: T.self, expected: "an object"))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try scalarIfPresent(key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try scalarIfPresent(key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try scalarIfPresent(key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try scalarIfPresent(key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try scalarIfPresent(key) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = members[key.stringValue], !value.isNull else { return nil }
        return try T(from: JSONValueDecoder(value: value, codingPath: codingPath + [key], type: T.self, nullIsMissing: true))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(key, type: nil, expected: "an object").container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(key, type: nil, expected: "an array").unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        JSONValueDecoder(value: .object(members), codingPath: codingPath, type: nil)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try decoder(key, type: nil, expected: "a value")
    }
}
#endif
