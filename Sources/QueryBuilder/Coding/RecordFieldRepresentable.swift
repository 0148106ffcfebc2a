import Foundation
import PredicateLanguage

/// A Swift type stored as one field value of its own kind, not through its `Codable` form.
///
/// `Date`, `Data`, `UUID` (as its string), `URL` (as its string), `Location`, `Reference`,
/// ``RecordReference`` and `Value` conform; the encoder and decoder check for them first.
protocol RecordFieldRepresentable {
    /// The value as a field.
    var recordFieldValue: Value { get }
    /// The value read back from a field, or nil when the field holds another kind.
    init?(recordFieldValue: Value)
    /// The type's name in error messages.
    static var recordFieldTypeName: String { get }
}

extension Date: RecordFieldRepresentable {
    var recordFieldValue: Value { .date(self) }
    init?(recordFieldValue: Value) {
        guard case .date(let date) = recordFieldValue else { return nil }
        self = date
    }
    static var recordFieldTypeName: String { "Date" }
}

extension Data: RecordFieldRepresentable {
    var recordFieldValue: Value { .bytes(self) }
    init?(recordFieldValue: Value) {
        guard case .bytes(let data) = recordFieldValue else { return nil }
        self = data
    }
    static var recordFieldTypeName: String { "Data" }
}

extension UUID: RecordFieldRepresentable {
    var recordFieldValue: Value { .string(uuidString) }
    init?(recordFieldValue: Value) {
        guard case .string(let text) = recordFieldValue, let uuid = UUID(uuidString: text) else { return nil }
        self = uuid
    }
    static var recordFieldTypeName: String { "UUID" }
}

extension URL: RecordFieldRepresentable {
    var recordFieldValue: Value { .string(absoluteString) }
    init?(recordFieldValue: Value) {
        guard case .string(let text) = recordFieldValue, let url = URL(string: text) else { return nil }
        self = url
    }
    static var recordFieldTypeName: String { "URL" }
}

extension Location: RecordFieldRepresentable {
    var recordFieldValue: Value { .location(self) }
    init?(recordFieldValue: Value) {
        guard case .location(let location) = recordFieldValue else { return nil }
        self = location
    }
    static var recordFieldTypeName: String { "Location" }
}

extension Reference: RecordFieldRepresentable {
    var recordFieldValue: Value { .reference(self) }
    init?(recordFieldValue: Value) {
        guard case .reference(let reference) = recordFieldValue else { return nil }
        self = reference
    }
    static var recordFieldTypeName: String { "Reference" }
}

extension Value: RecordFieldRepresentable {
    var recordFieldValue: Value { self }
    init?(recordFieldValue: Value) { self = recordFieldValue }
    static var recordFieldTypeName: String { "Value" }
}
