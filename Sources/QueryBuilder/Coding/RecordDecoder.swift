import Foundation
import PredicateLanguage
import RecordStore

/// Decodes `Codable` models from records: a real `Decoder`, the inverse of ``RecordEncoder``.
///
/// A missing field (or `.null`) decodes as nil for an optional property and is
/// ``ModelCodingError/missingField(recordType:recordName:field:)`` otherwise; a field of the
/// wrong type is ``ModelCodingError/typeMismatch(recordType:recordName:field:expected:found:)``,
/// naming the record, the field (`address.city`, `tags[1]`), and the expected and found types.
/// Numbers convert between integer, double and boolean when the value fits. Properties named
/// `recordName`, `creationDate`, `modificationDate` or `recordChangeTag` read the record's metadata,
/// and a property `id` with no field of its own reads the record name (the identity of an
/// `Identifiable` model: records imported from a file, or fetched without that field, decode too).
///
/// ```swift
/// let item = try RecordDecoder().decode(Item.self, from: record)
/// ```
public struct RecordDecoder: Sendable {
    /// The prefetched records whose models the decoded references carry, if any.
    let prefetched: PrefetchedTargets?

    /// Creates a decoder.
    public init() {
        prefetched = nil
    }

    /// A decoder that attaches prefetched targets to the references it decodes.
    init(prefetched: PrefetchedTargets) {
        self.prefetched = prefetched
    }

    /// Decodes a model from a record (its fields and metadata).
    ///
    /// ```swift
    /// let item = try RecordDecoder().decode(Item.self, from: try store.record(for: RecordID(recordName: "a1"))!)
    /// ```
    public func decode<T: Decodable>(_ type: T.Type, from record: Record) throws -> T {
        var object = record.fields
        for name in Record.metadataFieldNames {
            let metadata = record.value(named: name)
            if !metadata.isNull { object[name] = metadata }
        }
        if object["id"] == nil { object["id"] = .string(record.recordID.recordName) }
        let context = DecodingContext(recordType: record.recordType, recordName: record.recordID.recordName, record: record, prefetched: prefetched)
        return try ValueDecoder(value: .object(object), codingPath: [], context: context).decodeValue(T.self)
    }

    /// Decodes a model from field values, naming the record in errors.
    ///
    /// ```swift
    /// let item = try RecordDecoder().decode(Item.self, fromFields: ["id": "a1", "name": "Apple", ...])
    /// ```
    public func decode<T: Decodable>(
        _ type: T.Type, fromFields fields: [String: Value], recordType: String? = nil, recordName: String = "(new)"
    ) throws -> T {
        let context = DecodingContext(recordType: recordType ?? String(describing: T.self), recordName: recordName)
        return try ValueDecoder(value: .object(fields), codingPath: [], context: context).decodeValue(T.self)
    }

    /// Decodes one field's value on its own (an aggregate of the field), naming the field in errors.
    func decode<T: Decodable>(_ type: T.Type, fromValue value: Value, field: String, recordType: String, recordName: String) throws -> T {
        let context = DecodingContext(recordType: recordType, recordName: recordName)
        return try ValueDecoder(value: value, codingPath: [NamedCodingKey(field)], context: context).decodeValue(T.self)
    }
}

/// The record being decoded, for error messages, and what its references may carry.
struct DecodingContext {
    let recordType: String
    let recordName: String
    /// The record decoded, when decoding a whole record.
    var record: Record? = nil
    /// The prefetched targets of its references.
    var prefetched: PrefetchedTargets? = nil
}

/// The `Decoder` over one value.
final class ValueDecoder: Decoder {
    let value: Value
    let codingPath: [any CodingKey]
    let context: DecodingContext
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(value: Value, codingPath: [any CodingKey], context: DecodingContext) {
        self.value = value
        self.codingPath = codingPath
        self.context = context
    }

    var fieldName: String { FieldPath.text(codingPath) }

    func mismatch(_ expected: String, _ found: Value) -> ModelCodingError {
        .typeMismatch(
            recordType: context.recordType, recordName: context.recordName,
            field: fieldName, expected: expected, found: found.typeName)
    }

    func missing() -> ModelCodingError {
        .missingField(recordType: context.recordType, recordName: context.recordName, field: fieldName)
    }

    /// The value as a container's content: an object or list, or JSON text of one (how the store keeps them).
    func containerValue() -> Value {
        if case .string(let text) = value, let first = text.first, first == "{" || first == "[",
           let parsed = try? Value(jsonText: text) {
            switch parsed {
            case .object, .list: return parsed
            default: break
            }
        }
        return value
    }

    /// Decodes any `Decodable` from this decoder's value: the field types first, then the type's own `init(from:)`.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if let special = T.self as? any RecordFieldRepresentable.Type {
            if value.isNull, T.self != Value.self { throw missing() }
            guard let decoded = special.init(recordFieldValue: value) as? T else {
                throw mismatch(special.recordFieldTypeName, value)
            }
            return try withPrefetchedTarget(decoded)
        }
        if let primitive = try decodePrimitive(T.self) {
            return primitive
        }
        if value.isNull { throw missing() }
        return try T(from: self)
    }

    /// A reference of a record's own field with its prefetched target attached, when the field's
    /// relationship was prefetched and reaches a record; the value as it was otherwise.
    private func withPrefetchedTarget<T>(_ decoded: T) throws -> T {
        guard let reference = decoded as? any PrefetchableReference, codingPath.count == 1,
              let record = context.record, let prefetched = context.prefetched,
              let next = prefetched.following(codingPath[0].stringValue),
              let target = prefetched.related.record(through: codingPath[0].stringValue, of: record)
        else { return decoded }
        return try reference.attaching(target, decoder: RecordDecoder(prefetched: next)) as? T ?? decoded
    }

    /// A standard-library scalar, or nil when `T` is not one.
    func decodePrimitive<T>(_ type: T.Type) throws -> T? {
        switch type {
        case is String.Type:
            guard case .string(let text) = try present() else { throw mismatch("String", value) }
            return text as? T
        case is Bool.Type:
            switch try present() {
            case .bool(let flag): return flag as? T
            case .int(let number) where number == 0 || number == 1: return (number == 1) as? T
            default: throw mismatch("Bool", value)
            }
        case is Double.Type: return try floatingPoint("Double") as? T
        case is Float.Type: return try Float(floatingPoint("Float")) as? T
        case is Decimal.Type: return try Decimal(floatingPoint("Decimal")) as? T
        case is Int.Type: return try integer(Int.self, "Int") as? T
        case is Int8.Type: return try integer(Int8.self, "Int8") as? T
        case is Int16.Type: return try integer(Int16.self, "Int16") as? T
        case is Int32.Type: return try integer(Int32.self, "Int32") as? T
        case is Int64.Type: return try integer(Int64.self, "Int64") as? T
        case is UInt.Type: return try integer(UInt.self, "UInt") as? T
        case is UInt8.Type: return try integer(UInt8.self, "UInt8") as? T
        case is UInt16.Type: return try integer(UInt16.self, "UInt16") as? T
        case is UInt32.Type: return try integer(UInt32.self, "UInt32") as? T
        case is UInt64.Type: return try integer(UInt64.self, "UInt64") as? T
        default: return nil
        }
    }

    /// The value, or a missing-field error for null.
    func present() throws -> Value {
        if value.isNull { throw missing() }
        return value
    }

    func floatingPoint(_ typeName: String) throws -> Double {
        guard let number = try present().numericValue, !(try present().isBoolean) else { throw mismatch(typeName, value) }
        return number
    }

    func integer<I: FixedWidthInteger>(_ type: I.Type, _ typeName: String) throws -> I {
        switch try present() {
        case .int(let number):
            guard let exact = I(exactly: number) else { throw outOfRange(typeName) }
            return exact
        case .double(let number):
            guard let exact = I(exactly: number) else {
                if number.rounded() == number { throw outOfRange(typeName) }
                throw mismatch(typeName, value)
            }
            return exact
        default:
            throw mismatch(typeName, value)
        }
    }

    func outOfRange(_ typeName: String) -> ModelCodingError {
        .numberOutOfRange(
            recordType: context.recordType, recordName: context.recordName,
            field: fieldName, expected: typeName, value: value.predicateDescription)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let content = containerValue()
        guard case .object(let object) = content else {
            if content.isNull { throw missing() }
            throw mismatch("an object", content)
        }
        return KeyedDecodingContainer(KeyedValueDecodingContainer<Key>(decoder: self, object: object))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let content = containerValue()
        guard case .list(let members) = content else {
            if content.isNull { throw missing() }
            throw mismatch("a list", content)
        }
        return UnkeyedValueDecodingContainer(decoder: self, members: members)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueDecodingContainerImpl(decoder: self)
    }

    /// A decoder for a member value.
    func child(_ value: Value, key: any CodingKey) -> ValueDecoder {
        ValueDecoder(value: value, codingPath: codingPath + [key], context: context)
    }
}

extension Value {
    /// Whether this is a boolean.
    var isBoolean: Bool {
        if case .bool = self { return true }
        return false
    }

    /// A short printed form for messages.
    var predicateDescription: String {
        switch self {
        case .int(let number): String(number)
        case .double(let number): String(number)
        default: typeName
        }
    }
}

/// Keyed container reading an object's members.
struct KeyedValueDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ValueDecoder
    let object: [String: Value]
    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool {
        object[key.stringValue] != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        (object[key.stringValue] ?? .null).isNull
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.child(object[key.stringValue] ?? .null, key: key).decodeValue(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.child(object[key.stringValue] ?? .null, key: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(object[key.stringValue] ?? .null, key: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder.child(object["super"] ?? .null, key: IndexCodingKey(index: 0))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(object[key.stringValue] ?? .null, key: key)
    }
}

/// Unkeyed container reading a list's members.
struct UnkeyedValueDecodingContainer: UnkeyedDecodingContainer {
    let decoder: ValueDecoder
    let members: [Value]
    var currentIndex = 0
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { members.count }
    var isAtEnd: Bool { currentIndex >= members.count }

    init(decoder: ValueDecoder, members: [Value]) {
        self.decoder = decoder
        self.members = members
    }

    private func nextDecoder() throws -> ValueDecoder {
        let key = IndexCodingKey(index: currentIndex)
        guard !isAtEnd else {
            throw ModelCodingError.missingField(
                recordType: decoder.context.recordType, recordName: decoder.context.recordName,
                field: FieldPath.text(codingPath + [key]))
        }
        return decoder.child(members[currentIndex], key: key)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        if members[currentIndex].isNull {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try nextDecoder().decodeValue(T.self)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try nextDecoder().container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try nextDecoder().unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let child = try nextDecoder()
        currentIndex += 1
        return child
    }
}

/// Single-value container reading the decoder's value.
struct SingleValueDecodingContainerImpl: SingleValueDecodingContainer {
    let decoder: ValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value.isNull }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.decodeValue(T.self)
    }
}
