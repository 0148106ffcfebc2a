import Foundation
import PredicateLanguage
import RecordStore

/// Encodes `Codable` models as record fields: a real `Encoder`.
///
/// Mapping: `String` → string; every integer type → integer (a `UInt64` above `Int64.max`
/// → double); `Double`/`Float` → double; `Bool` → boolean; `Date` → date; `Data` → bytes;
/// `UUID` and `URL` → string; `Location` → location; `Reference` and ``RecordReference`` →
/// reference; arrays → lists; nested `Codable` structs and string-keyed dictionaries → `.object`;
/// nil → no field. The metadata names (`recordName`, `creationDate`, `modificationDate`,
/// `recordChangeTag`) are never written as fields.
///
/// The store keeps neither objects nor lists of objects, lists or nulls, so ``record(for:zone:generatedName:)``
/// stores such a field as the JSON text of its value (typed values as `{"$date": ...}`, ...);
/// ``RecordDecoder`` reads both forms.
///
/// ```swift
/// let fields = try RecordEncoder().fields(for: item)
/// // ["id": "a1", "name": "Apple", "quantity": 1, "date": .date(...)]
/// let record = try RecordEncoder().record(for: item)   // Record(recordType: "Item", recordName: "a1")
/// ```
public struct RecordEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// The fields of a model, with nested structs as `.object` values.
    ///
    /// ```swift
    /// try RecordEncoder().fields(for: Shop(name: "A", address: Address(city: "Paris")))
    /// // ["name": "A", "address": .object(["city": "Paris"])]
    /// ```
    public func fields<T: Encodable>(for model: T, recordType: String? = nil) throws -> [String: Value] {
        let typeName = recordType ?? String(describing: T.self)
        let encoder = ValueEncoder(recordType: typeName, codingPath: [])
        let root = try encoder.encodeRoot(model)
        guard case .object(var fields) = root else {
            throw ModelCodingError.notKeyed(recordType: typeName, found: root.typeName)
        }
        for name in Record.metadataFieldNames { fields[name] = nil }
        return fields.filter { !$0.value.isNull }
    }

    /// The record of a model, with fields the store can keep (see the type's notes on objects),
    /// named by the model's ``RecordModel/recordName`` (or `generatedName` when it has none).
    ///
    /// ```swift
    /// let record = try RecordEncoder().record(for: item)
    /// record.recordID.recordName   // "a1"
    /// ```
    public func record<T: RecordModel>(for model: T, zone: ZoneID = .default, generatedName: String? = nil) throws -> Record {
        let fields = try fields(for: model, recordType: T.recordType)
        let name = model.recordName ?? generatedName ?? RecordNaming.generated()
        return Record(
            recordType: T.recordType,
            recordID: RecordID(recordName: name, zoneID: zone),
            fields: fields.mapValues(Self.storableValue))
    }

    /// A field value the store can keep: objects, and lists that hold objects, lists or nulls, become JSON text.
    static func storableValue(_ value: Value) -> Value {
        switch value {
        case .object:
            return .string(value.jsonText())
        case .list(let members):
            let storable = members.allSatisfy { member in
                switch member {
                case .object, .list, .null: false
                default: true
                }
            }
            return storable ? value : .string(value.jsonText())
        default:
            return value
        }
    }
}

/// A node of the value being encoded: a single value, or a keyed or unkeyed container still being filled.
final class EncodingSlot {
    enum Content {
        case empty
        case value(Value)
        case keyed([(String, EncodingSlot)])
        case unkeyed([EncodingSlot])
    }

    var content: Content = .empty

    /// The finished value.
    var value: Value {
        switch content {
        case .empty: return .null
        case .value(let value): return value
        case .keyed(let members):
            var object: [String: Value] = [:]
            for (key, slot) in members { object[key] = slot.value }
            return .object(object)
        case .unkeyed(let members):
            return .list(members.map(\.value))
        }
    }

    /// Adds a keyed member slot (the container is made keyed when it is not yet).
    func keyedSlot(_ key: String) -> EncodingSlot {
        let slot = EncodingSlot()
        if case .keyed(var members) = content {
            members.removeAll { $0.0 == key }
            members.append((key, slot))
            content = .keyed(members)
        } else {
            content = .keyed([(key, slot)])
        }
        return slot
    }

    /// Appends an unkeyed member slot.
    func appendedSlot() -> EncodingSlot {
        let slot = EncodingSlot()
        if case .unkeyed(var members) = content {
            members.append(slot)
            content = .unkeyed(members)
        } else {
            content = .unkeyed([slot])
        }
        return slot
    }

    func makeKeyed() {
        if case .keyed = content { return }
        content = .keyed([])
    }

    func makeUnkeyed() {
        if case .unkeyed = content { return }
        content = .unkeyed([])
    }

    var unkeyedCount: Int {
        if case .unkeyed(let members) = content { return members.count }
        return 0
    }
}

/// The `Encoder` that writes into one slot.
final class ValueEncoder: Encoder {
    let recordType: String
    let codingPath: [any CodingKey]
    let slot: EncodingSlot
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(recordType: String, codingPath: [any CodingKey], slot: EncodingSlot = EncodingSlot()) {
        self.recordType = recordType
        self.codingPath = codingPath
        self.slot = slot
    }

    /// Encodes a value into this encoder's slot and returns the result.
    func encodeRoot<T: Encodable>(_ value: T) throws -> Value {
        try encodeValue(value, into: slot, path: codingPath)
        return slot.value
    }

    /// Encodes any `Encodable` into a slot: the field types first, then the value's own `encode(to:)`.
    func encodeValue<T: Encodable>(_ value: T, into slot: EncodingSlot, path: [any CodingKey]) throws {
        if let special = value as? any RecordFieldRepresentable {
            slot.content = .value(special.recordFieldValue)
            return
        }
        if let primitive = try Self.primitiveValue(value, recordType: recordType, path: path) {
            slot.content = .value(primitive)
            return
        }
        try value.encode(to: ValueEncoder(recordType: recordType, codingPath: path, slot: slot))
    }

    /// The value of a standard-library scalar, or nil for anything else.
    static func primitiveValue(_ value: Any, recordType: String, path: [any CodingKey]) throws -> Value? {
        switch value {
        case let v as String: return .string(v)
        case let v as Bool: return .bool(v)
        case let v as Int: return .int(Int64(v))
        case let v as Int8: return .int(Int64(v))
        case let v as Int16: return .int(Int64(v))
        case let v as Int32: return .int(Int64(v))
        case let v as Int64: return .int(v)
        case let v as UInt: return UInt64(v).formatArgumentValue
        case let v as UInt8: return .int(Int64(v))
        case let v as UInt16: return .int(Int64(v))
        case let v as UInt32: return .int(Int64(v))
        case let v as UInt64: return v.formatArgumentValue
        case let v as Double: return .double(v)
        case let v as Float: return .double(Double(v))
        case let v as Decimal: return .double(NSDecimalNumber(decimal: v).doubleValue)
        default: return nil
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        slot.makeKeyed()
        return KeyedEncodingContainer(KeyedValueEncodingContainer<Key>(encoder: self, slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        slot.makeUnkeyed()
        return UnkeyedValueEncodingContainer(encoder: self, slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueEncodingContainerImpl(encoder: self, slot: slot, codingPath: codingPath)
    }
}

/// Keyed container writing members of an object.
struct KeyedValueEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueEncoder
    let slot: EncodingSlot
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        slot.keyedSlot(key.stringValue).content = .value(.null)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.encodeValue(value, into: slot.keyedSlot(key.stringValue), path: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let member = slot.keyedSlot(key.stringValue)
        member.makeKeyed()
        return KeyedEncodingContainer(KeyedValueEncodingContainer<NestedKey>(encoder: encoder, slot: member, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let member = slot.keyedSlot(key.stringValue)
        member.makeUnkeyed()
        return UnkeyedValueEncodingContainer(encoder: encoder, slot: member, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        ValueEncoder(recordType: encoder.recordType, codingPath: codingPath, slot: slot.keyedSlot("super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        ValueEncoder(recordType: encoder.recordType, codingPath: codingPath + [key], slot: slot.keyedSlot(key.stringValue))
    }
}

/// Unkeyed container writing members of a list.
struct UnkeyedValueEncodingContainer: UnkeyedEncodingContainer {
    let encoder: ValueEncoder
    let slot: EncodingSlot
    let codingPath: [any CodingKey]
    var count: Int { slot.unkeyedCount }

    private var nextKey: any CodingKey { IndexCodingKey(index: count) }

    mutating func encodeNil() throws {
        slot.appendedSlot().content = .value(.null)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [nextKey]
        try encoder.encodeValue(value, into: slot.appendedSlot(), path: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = codingPath + [nextKey]
        let member = slot.appendedSlot()
        member.makeKeyed()
        return KeyedEncodingContainer(KeyedValueEncodingContainer<NestedKey>(encoder: encoder, slot: member, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [nextKey]
        let member = slot.appendedSlot()
        member.makeUnkeyed()
        return UnkeyedValueEncodingContainer(encoder: encoder, slot: member, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let path = codingPath + [nextKey]
        return ValueEncoder(recordType: encoder.recordType, codingPath: path, slot: slot.appendedSlot())
    }
}

/// Single-value container writing one value into a slot.
struct SingleValueEncodingContainerImpl: SingleValueEncodingContainer {
    let encoder: ValueEncoder
    let slot: EncodingSlot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws {
        slot.content = .value(.null)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.encodeValue(value, into: slot, path: codingPath)
    }
}

/// A coding key for a list position.
struct IndexCodingKey: CodingKey {
    let index: Int
    init(index: Int) { self.index = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.index = intValue }
    var stringValue: String { "[\(index)]" }
    var intValue: Int? { index }
}

/// The dotted field path of a coding path: `address.city`, `tags[1]`.
enum FieldPath {
    static func text(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if key.intValue != nil, key is IndexCodingKey {
                text += key.stringValue
            } else if let index = key.intValue, key.stringValue.isEmpty || key.stringValue == "Index \(index)" {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }
}
