import Foundation

/// The rules a field's values follow, as a Core Data model states them for an attribute:
/// whether it is required, its default value, a range for numbers and dates, a length for
/// strings, and a pattern. A save that breaks any of them fails as a whole
/// (``RecordStoreError/validationFailed(_:)``), before anything is written.
///
/// ```swift
/// var age = FieldSchema(name: "age", type: .int64)
/// age.validation = FieldValidation(minimumValue: 16, maximumValue: 99)
/// var email = FieldSchema(name: "email", type: .string)
/// email.validation = FieldValidation(isRequired: true, pattern: "[^@]+@[^@]+")
/// ```
///
/// What each rule means, as Core Data has it:
/// - ``isRequired``: a saved record must hold a value (Core Data's `optional="NO"`).
/// - ``defaultValue``: a new record (one not stored yet) that leaves the field out gets it, before
///   the other rules are checked. A record already stored keeps what its save says: leaving the
///   field out removes the value, as setting it to nil does in Core Data.
/// - ``minimumValue`` and ``maximumValue``: bounds, inclusive, of a number (`minValueString`,
///   `maxValueString` of a numeric attribute).
/// - ``earliestDate`` and ``latestDate``: bounds, inclusive, of a date (`minDateTimeInterval`,
///   `maxDateTimeInterval`).
/// - ``minimumLength`` and ``maximumLength``: bounds, inclusive, of a string's length, counted
///   in UTF-16 code units as `NSString.length` counts them (`minValueString`, `maxValueString`
///   of a string attribute).
/// - ``pattern``: a regular expression the whole string must match, as `MATCHES` does
///   (`regularExpressionString`).
///
/// A rule is checked only on a value that is there: an optional field left empty breaks none.
public struct FieldValidation: Sendable, Hashable, Codable {
    /// Whether every saved record must hold a value.
    public var isRequired: Bool
    /// The value a new record that leaves the field out gets.
    public var defaultValue: FieldDefaultValue?
    /// The smallest number allowed.
    public var minimumValue: Double?
    /// The largest number allowed.
    public var maximumValue: Double?
    /// The earliest date allowed.
    public var earliestDate: Date?
    /// The latest date allowed.
    public var latestDate: Date?
    /// The shortest string allowed, in UTF-16 code units.
    public var minimumLength: Int?
    /// The longest string allowed, in UTF-16 code units.
    public var maximumLength: Int?
    /// The regular expression (ICU syntax) a string must match as a whole.
    public var pattern: String?

    /// Rules for a field; each left out is no rule.
    ///
    /// ```swift
    /// FieldValidation(isRequired: true, defaultValue: .string("Unnamed"), maximumLength: 40)
    /// ```
    public init(
        isRequired: Bool = false, defaultValue: FieldDefaultValue? = nil, minimumValue: Double? = nil, maximumValue: Double? = nil,
        earliestDate: Date? = nil, latestDate: Date? = nil, minimumLength: Int? = nil, maximumLength: Int? = nil, pattern: String? = nil
    ) {
        self.isRequired = isRequired
        self.defaultValue = defaultValue
        self.minimumValue = minimumValue
        self.maximumValue = maximumValue
        self.earliestDate = earliestDate
        self.latestDate = latestDate
        self.minimumLength = minimumLength
        self.maximumLength = maximumLength
        self.pattern = pattern
    }

    /// Whether it states no rule at all (a field with such rules is stored without them).
    public var isEmpty: Bool { self == FieldValidation() }

    /// The rules as the schema prints them: `required default 0 min 16 max 99 pattern "[^@]+@[^@]+"`.
    public var ruleDescription: String {
        var words: [String] = []
        if isRequired { words.append("required") }
        if let defaultValue { words.append("default \(defaultValue)") }
        if let minimumValue { words.append("min \(Self.number(minimumValue))") }
        if let maximumValue { words.append("max \(Self.number(maximumValue))") }
        if let earliestDate { words.append("from \(ISO8601DateFormatter().string(from: earliestDate))") }
        if let latestDate { words.append("until \(ISO8601DateFormatter().string(from: latestDate))") }
        if let minimumLength { words.append("min length \(minimumLength)") }
        if let maximumLength { words.append("max length \(maximumLength)") }
        if let pattern { words.append("pattern \"\(pattern)\"") }
        return words.joined(separator: " ")
    }

    /// A bound as written: `16`, `0.5`.
    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
