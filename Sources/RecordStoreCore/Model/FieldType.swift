import PredicateLanguage

/// The type of a record field, as a schema records it.
///
/// ```swift
/// FieldType(of: .int(42))                   // .int64
/// FieldType(of: ["a", "b"])                 // .list(.string)
/// FieldType.list(.string).description       // "list of string"
/// ```
public indirect enum FieldType: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Text: `Value.string`.
    case string
    /// A 64-bit signed integer: `Value.int`.
    case int64
    /// A double-precision floating-point number: `Value.double`.
    case double
    /// A boolean: `Value.bool`.
    case bool
    /// A date: `Value.date`.
    case date
    /// Raw bytes: `Value.bytes`.
    case bytes
    /// A geographic location: `Value.location`.
    case location
    /// A reference to another record: `Value.reference`.
    case reference
    /// A list whose members all have the element type.
    case list(FieldType)

    /// The type of a value, or nil for `.null`, an empty list (its element type is
    /// unknown), a list of mixed or nested members, and objects (not storable).
    public init?(of value: Value) {
        switch value {
        case .null, .object: return nil
        case .bool: self = .bool
        case .int: self = .int64
        case .double: self = .double
        case .string: self = .string
        case .date: self = .date
        case .bytes: self = .bytes
        case .location: self = .location
        case .reference: self = .reference
        case .list(let members):
            var elementType: FieldType?
            for member in members {
                guard let memberType = FieldType(of: member), !memberType.isList else { return nil }
                if let known = elementType, known != memberType {
                    if known.isNumber, memberType.isNumber, known != .bool, memberType != .bool {
                        elementType = .double
                        continue
                    }
                    return nil
                }
                elementType = elementType ?? memberType
            }
            guard let elementType else { return nil }
            self = .list(elementType)
        }
    }

    /// Whether this is a list type.
    public var isList: Bool {
        if case .list = self { return true }
        return false
    }

    /// The member type of a list type, or nil.
    public var elementType: FieldType? {
        if case .list(let element) = self { return element }
        return nil
    }

    /// Whether values of this type are numbers (integer, double, boolean).
    public var isNumber: Bool {
        self == .int64 || self == .double || self == .bool
    }

    /// Whether records can be sorted by a field of this type.
    public var isSortable: Bool {
        switch self {
        case .string, .int64, .double, .bool, .date: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .string: "string"
        case .int64: "int64"
        case .double: "double"
        case .bool: "bool"
        case .date: "date"
        case .bytes: "bytes"
        case .location: "location"
        case .reference: "reference"
        case .list(let element): "list of \(element)"
        }
    }
}
