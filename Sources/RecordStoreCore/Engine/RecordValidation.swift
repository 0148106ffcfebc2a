import Foundation
import PredicateLanguage

/// The rules of a record type that one record can be checked against by itself: its fields'
/// ``FieldValidation`` and the relationships it stores (a required to-one, a reference list's
/// counts). The counts of inverse to-manys need the records that point back, and are
/// ``SaveValidation``'s.
///
/// ```swift
/// var record = employee
/// RecordValidation.applyDefaults(to: &record, schema: schema)   // a new record only
/// let failures = RecordValidation.failures(of: record, schema: schema)
/// ```
package enum RecordValidation {
    /// Whether a record type states any rule this type checks, or an inverse to-many count.
    package static func hasRules(_ schema: RecordTypeSchema) -> Bool {
        schema.fields.contains { $0.validation != nil } || schema.relationships.contains(where: isConstrained)
    }

    /// Whether a relationship states a rule: required, or a count.
    package static func isConstrained(_ relationship: RelationshipSchema) -> Bool {
        relationship.isRequired || relationship.minimumCount != nil || relationship.maximumCount != nil
    }

    /// Gives a new record the default value of every field it leaves out.
    package static func applyDefaults(to record: inout Record, schema: RecordTypeSchema) {
        for field in schema.fields {
            guard let defaultValue = field.validation?.defaultValue, record.fields[field.name]?.isNull ?? true else { continue }
            record.fields[field.name] = defaultValue.value
        }
    }

    /// The rules the record breaks, its fields first (in the schema's order), then its stored relationships.
    package static func failures(of record: Record, schema: RecordTypeSchema) -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        func fail(_ key: String, _ code: ValidationErrorCode, _ reason: String) {
            failures.append(ValidationFailure(recordID: record.recordID, recordType: record.recordType, key: key, code: code, reason: reason))
        }
        for field in schema.fields {
            guard let rules = field.validation else { continue }
            guard let value = record.fields[field.name], !value.isNull else {
                if rules.isRequired { fail(field.name, .missingMandatoryProperty, "is required and holds no value") }
                continue
            }
            for (code, reason) in brokenRules(value, rules) { fail(field.name, code, reason) }
        }
        for relationship in schema.relationships where isConstrained(relationship) {
            switch relationship.kind {
            case .toOne:
                if relationship.isRequired, record.fields[relationship.name]?.isNull ?? true {
                    fail(relationship.name, .missingMandatoryProperty, "is required and references no \(relationship.destination)")
                }
            case .referenceList:
                let count = ReferenceLookup.referencedIDs(record.fields[relationship.name]).count
                if let (code, reason) = brokenCount(count, relationship) { fail(relationship.name, code, reason) }
            case .toMany:
                continue
            }
        }
        return failures
    }

    /// The count rule a to-many holding `count` records breaks, if any. An optional to-many may
    /// be empty whatever its minimum, as in Core Data.
    package static func brokenCount(_ count: Int, _ relationship: RelationshipSchema) -> (ValidationErrorCode, String)? {
        let records = count == 1 ? "1 record" : "\(count) records"
        if count == 0 {
            guard relationship.isRequired else { return nil }
            let minimum = max(relationship.minimumCount ?? 1, 1)
            return (.relationshipLacksMinimumCount, "holds no records; it requires at least \(minimum)")
        }
        if let minimum = relationship.minimumCount, count < minimum {
            return (.relationshipLacksMinimumCount, "holds \(records), fewer than its minimum \(minimum)")
        }
        if let maximum = relationship.maximumCount, count > maximum {
            return (.relationshipExceedsMaximumCount, "holds \(records), more than its maximum \(maximum)")
        }
        return nil
    }

    /// The rules a value that is there breaks.
    private static func brokenRules(_ value: Value, _ rules: FieldValidation) -> [(ValidationErrorCode, String)] {
        var broken: [(ValidationErrorCode, String)] = []
        switch value {
        case .int, .double, .bool:
            guard let number = value.numericValue else { break }
            if let minimum = rules.minimumValue, number < minimum {
                broken.append((.numberTooSmall, "is \(FieldValidation.number(number)), below the minimum \(FieldValidation.number(minimum))"))
            }
            if let maximum = rules.maximumValue, number > maximum {
                broken.append((.numberTooLarge, "is \(FieldValidation.number(number)), above the maximum \(FieldValidation.number(maximum))"))
            }
        case .date(let date):
            if let earliest = rules.earliestDate, date < earliest {
                broken.append((.dateTooSoon, "is \(iso(date)), before the earliest \(iso(earliest))"))
            }
            if let latest = rules.latestDate, date > latest {
                broken.append((.dateTooLate, "is \(iso(date)), after the latest \(iso(latest))"))
            }
        case .string(let text):
            let length = text.utf16.count
            let long = length == 1 ? "1 character long" : "\(length) characters long"
            if let minimum = rules.minimumLength, length < minimum {
                broken.append((.stringTooShort, "is \(long), shorter than the minimum \(minimum)"))
            }
            if let maximum = rules.maximumLength, length > maximum {
                broken.append((.stringTooLong, "is \(long), longer than the maximum \(maximum)"))
            }
            if let pattern = rules.pattern {
                do {
                    if try !ComparisonSemantics.holds(.matches, value, .string(pattern)) {
                        broken.append((.stringPatternMatching, "is \(quoted(text)), which does not match the pattern \(quoted(pattern))"))
                    }
                } catch {
                    broken.append((.stringPatternMatching, "cannot be checked against the pattern \(quoted(pattern)): \(error)"))
                }
            }
        default:
            break
        }
        return broken
    }

    private static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    /// A string as an error shows it: quoted, at most 60 characters.
    private static func quoted(_ text: String) -> String {
        text.count > 60 ? "\"\(text.prefix(57))...\"" : "\"\(text)\""
    }
}
