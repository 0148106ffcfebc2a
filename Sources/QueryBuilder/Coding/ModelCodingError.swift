import RecordStore

/// What went wrong mapping a model to a record or back. Every case names the record and the field.
///
/// ```swift
/// do { _ = try RecordDecoder().decode(Item.self, from: record) }
/// catch let error as ModelCodingError { print(error) }
/// // Field 'quantity' of record 'Item/a1': expected Int, found string
/// ```
public enum ModelCodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A field holds a value of another type than the model's property.
    case typeMismatch(recordType: String, recordName: String, field: String, expected: String, found: String)
    /// A field the model requires is missing from the record.
    case missingField(recordType: String, recordName: String, field: String)
    /// A number does not fit the model's integer or floating-point type.
    case numberOutOfRange(recordType: String, recordName: String, field: String, expected: String, value: String)
    /// The model does not encode as a keyed container (a struct or class with properties).
    case notKeyed(recordType: String, found: String)
    /// A property's value cannot be encoded as a field (for example a non-string dictionary key nested oddly).
    case unsupportedValue(recordType: String, field: String, reason: String)

    public var description: String {
        switch self {
        case .typeMismatch(let type, let name, let field, let expected, let found):
            "Field '\(field)' of record '\(type)/\(name)': expected \(expected), found \(found)"
        case .missingField(let type, let name, let field):
            "Field '\(field)' of record '\(type)/\(name)' is missing, and the model's property is not optional"
        case .numberOutOfRange(let type, let name, let field, let expected, let value):
            "Field '\(field)' of record '\(type)/\(name)': \(value) does not fit in \(expected)"
        case .notKeyed(let type, let found):
            "A '\(type)' model must encode as a keyed container (properties), but it encoded as \(found)"
        case .unsupportedValue(let type, let field, let reason):
            "Field '\(field)' of a '\(type)' model cannot be encoded: \(reason)"
        }
    }
}
