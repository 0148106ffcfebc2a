import Foundation

/// Any JSON value, as it is written: what the server reads a request body into before it
/// decodes its typed request, and what it builds an answer from.
///
/// It is plain JSON, integers kept apart from other numbers, as CloudKit's wire carries them: a
/// number without a fraction or exponent that fits in 64 bits is ``integer(_:)``, any other
/// number ``number(_:)``. ``Value`` is the store's value model instead (dates, locations and
/// references are cases of their own); both are read by the package's one JSON reader
/// (``init(parsing:)``, ``Value/init(jsonText:)``) and written by its one writer
/// (``jsonBytes()``, ``Value/jsonText(sortedKeys:)``). See the "Concepts" article of
/// RecordStoreCore for its neighbours.
///
/// ```swift
/// let value = try JSONValue(parsing: Array(#"{"resultsLimit": 10}"#.utf8))
/// value["resultsLimit"]?.integerValue   // 10
/// ```
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object (its members in no particular order).
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

    /// The kind of value, for error messages: `null`, `a boolean`, `a number`, `a string`,
    /// `an array` or `an object`.
    ///
    /// ```swift
    /// JSONValue.array([]).kindName   // "an array"
    /// ```
    public var kindName: String {
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
