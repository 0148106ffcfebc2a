/// Why a record broke its type's rules, with Core Data's error codes (`NSValidation…Error` in
/// `NSCocoaErrorDomain`), so that code that handles Core Data's validation errors reads these the same way.
///
/// ```swift
/// ValidationErrorCode.missingMandatoryProperty.rawValue   // 1570
/// ValidationErrorCode.numberTooLarge.coreDataName          // "NSValidationNumberTooLargeError"
/// ```
public enum ValidationErrorCode: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Several failures; ``RecordStoreError/validationFailed(_:)`` lists them
    /// (`NSValidationMultipleErrorsError`).
    case multipleErrors = 1560
    /// A required attribute or to-one relationship holds nothing (`NSValidationMissingMandatoryPropertyError`).
    case missingMandatoryProperty = 1570
    /// A to-many relationship holds fewer records than its minimum (`NSValidationRelationshipLacksMinimumCountError`).
    case relationshipLacksMinimumCount = 1580
    /// A to-many relationship holds more records than its maximum (`NSValidationRelationshipExceedsMaximumCountError`).
    case relationshipExceedsMaximumCount = 1590
    /// A number is above its maximum (`NSValidationNumberTooLargeError`).
    case numberTooLarge = 1610
    /// A number is below its minimum (`NSValidationNumberTooSmallError`).
    case numberTooSmall = 1620
    /// A date is after its latest (`NSValidationDateTooLateError`).
    case dateTooLate = 1630
    /// A date is before its earliest (`NSValidationDateTooSoonError`).
    case dateTooSoon = 1640
    /// A string is longer than its maximum (`NSValidationStringTooLongError`).
    case stringTooLong = 1660
    /// A string is shorter than its minimum (`NSValidationStringTooShortError`).
    case stringTooShort = 1670
    /// A string does not match its pattern (`NSValidationStringPatternMatchingError`).
    case stringPatternMatching = 1680

    /// Core Data's name for the code.
    public var coreDataName: String {
        switch self {
        case .multipleErrors: "NSValidationMultipleErrorsError"
        case .missingMandatoryProperty: "NSValidationMissingMandatoryPropertyError"
        case .relationshipLacksMinimumCount: "NSValidationRelationshipLacksMinimumCountError"
        case .relationshipExceedsMaximumCount: "NSValidationRelationshipExceedsMaximumCountError"
        case .numberTooLarge: "NSValidationNumberTooLargeError"
        case .numberTooSmall: "NSValidationNumberTooSmallError"
        case .dateTooLate: "NSValidationDateTooLateError"
        case .dateTooSoon: "NSValidationDateTooSoonError"
        case .stringTooLong: "NSValidationStringTooLongError"
        case .stringTooShort: "NSValidationStringTooShortError"
        case .stringPatternMatching: "NSValidationStringPatternMatchingError"
        }
    }

    /// The code and its name: `1570 NSValidationMissingMandatoryPropertyError`.
    public var description: String { "\(rawValue) \(coreDataName)" }
}
