import Foundation

extension CoreDataAttribute {
    /// The rules of the attribute's field, as Core Data validates the attribute; nil when it states none.
    /// - `optional="NO"`: required.
    /// - `defaultValueString` (`defaultDateTimeInterval` for a date): the default of a new record.
    /// - `minValueString`, `maxValueString`: the bounds of a number, or of a `String`'s length.
    /// - `minDateTimeInterval`, `maxDateTimeInterval`: the bounds of a date.
    /// - `regularExpressionString`: the pattern of a `String`.
    ///
    /// Settings that do not apply to the type (a length on a binary attribute) are kept in the
    /// model and not enforced; a transient attribute has no field, so no rules.
    ///
    /// ```swift
    /// CoreDataAttribute(name: "age", type: .integer16, minValueString: "16", maxValueString: "99").fieldValidation
    /// // FieldValidation(minimumValue: 16, maximumValue: 99)
    /// ```
    public var fieldValidation: FieldValidation? {
        var rules = FieldValidation(isRequired: !isOptional, defaultValue: defaultValue)
        switch type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float:
            rules.minimumValue = minValueString.flatMap(Double.init)
            rules.maximumValue = maxValueString.flatMap(Double.init)
        case .string:
            rules.minimumLength = minValueString.flatMap { Int($0) }
            rules.maximumLength = maxValueString.flatMap { Int($0) }
            rules.pattern = regularExpressionString.flatMap { $0.isEmpty ? nil : $0 }
        case .date:
            rules.earliestDate = minDateTimeInterval.map { Date(timeIntervalSinceReferenceDate: $0) }
            rules.latestDate = maxDateTimeInterval.map { Date(timeIntervalSinceReferenceDate: $0) }
        case .boolean, .binary, .uuid, .uri, .transformable, .undefined:
            break
        }
        return rules.isEmpty ? nil : rules
    }

    /// The default value in the field's type, if the model states one that applies.
    public var defaultValue: FieldDefaultValue? {
        if type == .date { return defaultDateTimeInterval.map { .date(Date(timeIntervalSinceReferenceDate: $0)) } }
        guard let text = defaultValueString else { return nil }
        switch type {
        case .integer16, .integer32, .integer64: return Int64(text).map { .integer($0) }
        case .decimal, .double, .float: return Double(text).map { .number($0) }
        case .boolean: return Self.boolean(text).map { .boolean($0) }
        case .string, .uuid, .uri: return .string(text)
        case .date, .binary, .transformable, .undefined: return nil
        }
    }

    /// What is wrong with a validation setting that cannot be read for the attribute's type
    /// (the model reader refuses it), or nil.
    var malformedValidationSetting: String? {
        func problem(_ setting: String, _ text: String, _ expected: String) -> String {
            "'\(setting)' on attribute '\(name)' is '\(text)'; expected \(expected)"
        }
        let numeric: Set<CoreDataAttributeType> = [.integer16, .integer32, .integer64, .decimal, .double, .float]
        for (setting, text) in [("minValueString", minValueString), ("maxValueString", maxValueString)] {
            guard let text else { continue }
            if numeric.contains(type), Double(text) == nil { return problem(setting, text, "a number") }
            if type == .string, Int(text).map({ $0 >= 0 }) != true { return problem(setting, text, "a length (a whole number of characters)") }
        }
        if let text = defaultValueString, !isTransient {
            let integers: Set<CoreDataAttributeType> = [.integer16, .integer32, .integer64]
            if integers.contains(type), Int64(text) == nil { return problem("defaultValueString", text, "an integer") }
            if numeric.subtracting(integers).contains(type), Double(text) == nil { return problem("defaultValueString", text, "a number") }
            if type == .boolean, Self.boolean(text) == nil { return problem("defaultValueString", text, "YES or NO") }
        }
        return nil
    }

    /// A boolean as a model writes it: `YES`/`NO` (or `true`/`false`, `1`/`0`).
    private static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true", "1": true
        case "no", "false", "0": false
        default: nil
        }
    }
}
