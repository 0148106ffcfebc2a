import Foundation

/// Any JSON value, as a request carries it before it is checked: the server decodes request
/// bodies into these and reads them with typed accessors, so that a value of the wrong type
/// is a `BAD_REQUEST` naming the key, never a decoding failure deep in `Codable`.
///
/// How it differs from its neighbours: PredicateLanguage's `Value` is a store value (dates,
/// locations, references are cases of their own) and its JSON mapping (`Value(jsonText:)`,
/// `TypedJSONValue`) spells those as one-key objects (`{"$date": ...}`) for the command line;
/// this is plain JSON, as CloudKit's wire carries it, with integers kept apart from other
/// numbers. ``WireValue`` reads and writes a field value (`{value, type}`) between the two, and
/// ``WireRecord`` a whole record. It is read by `JSONValue(parsing:)` (the private
/// `JSONParser`) and written by ``jsonBytes()``.
///
/// Integers stay exact: a number without a fraction or exponent that fits in 64 bits is
/// ``integer(_:)``, any other number ``number(_:)``.
///
/// ```swift
/// let value = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"resultsLimit": 10}"#.utf8))
/// value["resultsLimit"]?.integerValue   // 10
/// ```
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The member of an object, or nil (also when this is not an object).
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The integer this is (a whole `number` included), or nil.
    public var integerValue: Int64? {
        switch self {
        case .integer(let integer): return integer
        case .number(let number) where number.rounded() == number && abs(number) < 9.2e18: return Int64(number)
        case .string(let text): return Int64(text)
        default: return nil
        }
    }

    /// The number this is, or nil (numbers sent as strings, as `numbersAsStrings` clients do, included).
    public var doubleValue: Double? {
        switch self {
        case .integer(let integer): return Double(integer)
        case .number(let number): return number
        case .string(let text): return Double(text)
        default: return nil
        }
    }

    /// The string this is, or nil.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The boolean this is, or nil.
    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The elements of an array, or nil.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// Whether this is null.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The kind of value, for error messages.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValue: Codable {
    /// Decodes any JSON value (for `Codable` users; the server itself reads with ``init(parsing:)``).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let elements = try? container.decode([JSONValue].self) {
            self = .array(elements)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as the JSON it stands for.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .integer(let integer): try container.encode(integer)
        case .number(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members)
        }
    }
}
