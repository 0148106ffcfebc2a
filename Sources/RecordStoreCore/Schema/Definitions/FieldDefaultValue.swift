import Foundation
import PredicateLanguage

/// The value a new record gets for a field it leaves out (``FieldValidation/defaultValue``):
/// Core Data's `defaultValueString` or `defaultDateTimeInterval`, in the field's type.
///
/// ```swift
/// FieldDefaultValue.integer(0).value        // .int(0)
/// FieldDefaultValue.string("Unnamed").value // .string("Unnamed")
/// ```
public enum FieldDefaultValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// An integer (`int64` fields).
    case integer(Int64)
    /// A number (`double` fields).
    case number(Double)
    /// A boolean (`bool` fields).
    case boolean(Bool)
    /// Text (`string` fields).
    case string(String)
    /// A date (`date` fields).
    case date(Date)

    /// The value a record holds.
    public var value: Value {
        switch self {
        case .integer(let integer): .int(integer)
        case .number(let number): .double(number)
        case .boolean(let boolean): .bool(boolean)
        case .string(let text): .string(text)
        case .date(let date): .date(date)
        }
    }

    /// The value as the schema prints it: `0`, `0.5`, `YES`, `"Unnamed"`, `1992-12-31T00:00:00Z`.
    public var description: String {
        switch self {
        case .integer(let integer): String(integer)
        case .number(let number): String(number)
        case .boolean(let boolean): boolean ? "YES" : "NO"
        case .string(let text): "\"\(text)\""
        case .date(let date): ISO8601DateFormatter().string(from: date)
        }
    }
}
