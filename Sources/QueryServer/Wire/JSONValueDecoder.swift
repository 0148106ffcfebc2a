// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The `Decoder` of requests: it decodes a `Decodable` request from the ``JSONValue`` that the
/// package's one JSON reader made of its body, reading members as ``JSONValue``'s accessors do,
/// and throws `DecodingError`s that ``RequestBodyDecoder`` turns into CloudKit's `BAD_REQUEST`
/// naming the member's path and the type expected (each carries a ``RequestMismatch``).
///
/// An object's member that is null is missing, as one that is absent (`decodeIfPresent` is nil);
/// an array's null element is a value of the wrong kind. Use it through ``RequestBodyDecoder``.
///
/// ```swift
/// let request = try RecordsQueryRequest(from: JSONValueDecoder(value: body, codingPath: [], type: RecordsQueryRequest.self))
/// ```
struct JSONValueDecoder: Decoder, SingleValueDecodingContainer {
    /// The value decoded.
    let value: JSONValue
    let codingPath: [any CodingKey]
    /// The type decoded, whose ``JSONExpectation`` words the error when the value does not fit.
    let type: Any.Type?
    /// Whether a null value is missing (an object's member) rather than of the wrong kind.
    var nullIsMissing = false

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch(expected: "an object") }
        return KeyedDecodingContainer(JSONValueKeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch(expected: "an array") }
        return JSONValueUnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// The value as it was sent (``SentJSON``); a null member is missing.
    func sentValue() throws -> JSONValue {
        if nullIsMissing, value.isNull { throw mismatch(expected: SentJSON.expectation) }
        return value
    }

    /// The error of a value that is not what ``type`` expects (`expected` when it has no ``JSONExpectation``).
    func mismatch(expected: String) -> DecodingError {
        Self.mismatch(value, type ?? Any.self, at: codingPath, expected: jsonExpectation(of: type) ?? expected, nullIsMissing: nullIsMissing)
    }

    /// The error of `value` at `path`, which is not `expected`: missing when null is, of the wrong kind otherwise.
    static func mismatch(_ value: JSONValue, _ type: Any.Type, at path: [any CodingKey], expected: String, nullIsMissing: Bool) -> DecodingError {
        if nullIsMissing, value.isNull {
            return .valueNotFound(type, .init(codingPath: path, debugDescription: "missing (\(expected))",
                                              underlyingError: RequestMismatch(expected: expected, actual: nil)))
        }
        return .typeMismatch(type, .init(codingPath: path, debugDescription: "\(expected), not \(value.kindName)",
                                         underlyingError: RequestMismatch(expected: expected, actual: value.kindName)))
    }

    // MARK: A single value

    func decodeNil() -> Bool { value.isNull }

    private func scalar<T: JSONScalar>() throws -> T {
        guard let scalar = T.scalar(value) else { throw mismatch(expected: T.expectation) }
        return scalar
    }

    func decode(_ type: Bool.Type) throws -> Bool { try scalar() }
    func decode(_ type: String.Type) throws -> String { try scalar() }
    func decode(_ type: Double.Type) throws -> Double { try scalar() }
    func decode(_ type: Float.Type) throws -> Float { try scalar() }
    func decode(_ type: Int.Type) throws -> Int { try scalar() }
    func decode(_ type: Int8.Type) throws -> Int8 { try scalar() }
    func decode(_ type: Int16.Type) throws -> Int16 { try scalar() }
    func decode(_ type: Int32.Type) throws -> Int32 { try scalar() }
    func decode(_ type: Int64.Type) throws -> Int64 { try scalar() }
    func decode(_ type: UInt.Type) throws -> UInt { try scalar() }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar() }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar() }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar() }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar() }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }
}

/// What a member of a request should have been and what it was (nil: missing), as the
/// `underlyingError` of ``JSONValueDecoder``'s `DecodingError`s.
struct RequestMismatch: Error {
    let expected: String
    let actual: String?
}
#endif
