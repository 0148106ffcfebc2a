// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage

/// The elements of a JSON array being decoded (``JSONValueDecoder``), each at its index in the
/// path (`desiredKeys[1]`); a null element is of the wrong kind, not missing.
///
/// ```swift
/// var elements = try decoder.unkeyedContainer()
/// while !elements.isAtEnd { names.append(try elements.decode(String.self)) }
/// ```
struct JSONValueUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The next element and its path, the container moving past it.
    private mutating func next(_ type: Any.Type) throws -> (value: JSONValue, path: [any CodingKey]) {
        guard !isAtEnd else { throw endOfArray(type) }
        defer { currentIndex += 1 }
        return (elements[currentIndex], codingPath + [JSONKey(intValue: currentIndex)])
    }

    /// The error of reading past the last element.
    private func endOfArray(_ type: Any.Type) -> DecodingError {
        .valueNotFound(type, .init(codingPath: codingPath + [JSONKey(intValue: currentIndex)], debugDescription: "the array has no more elements"))
    }

    /// The decoder of the next element, for a type (nil: a nested container).
    private mutating func nextDecoder(_ type: Any.Type?) throws -> JSONValueDecoder {
        let (value, path) = try next(type ?? Any.self)
        return JSONValueDecoder(value: value, codingPath: path, type: type)
    }

    private mutating func scalar<T: JSONScalar>() throws -> T {
        guard !isAtEnd else { throw endOfArray(T.self) }
        let value = elements[currentIndex]
        guard let scalar = T.scalar(value) else {
            throw JSONValueDecoder.mismatch(value, T.self, at: codingPath + [JSONKey(intValue: currentIndex)], expected: T.expectation, nullIsMissing: false)
        }
        currentIndex += 1
        return scalar
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try scalar() }
    mutating func decode(_ type: String.Type) throws -> String { try scalar() }
    mutating func decode(_ type: Double.Type) throws -> Double { try scalar() }
    mutating func decode(_ type: Float.Type) throws -> Float { try scalar() }
    mutating func decode(_ type: Int.Type) throws -> Int { try scalar() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try scalar() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try scalar() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try scalar() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try scalar() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try scalar() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar() }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: nextDecoder(T.self))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try nextDecoder(nil).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try nextDecoder(nil).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try nextDecoder(nil)
    }
}
#endif
