/// One rule one record broke (``RecordStoreError/validationFailed(_:)``): the record, the field
/// or relationship (Core Data's `NSValidationKeyErrorKey`), the code, and what was wrong.
///
/// ```swift
/// do {
///     try await store.save([employee])
/// } catch .validationFailed(let failures) {
///     for failure in failures { print(failure.recordID.recordName, failure.key, failure.code.rawValue) }
/// }
/// ```
public struct ValidationFailure: Sendable, Hashable, CustomStringConvertible {
    /// The record that broke the rule.
    public var recordID: RecordID
    /// Its record type.
    public var recordType: String
    /// The field or relationship.
    public var key: String
    /// Which rule, with Core Data's code.
    public var code: ValidationErrorCode
    /// What was wrong, for people: `is 12, below the minimum 16`.
    public var reason: String

    /// A failure.
    ///
    /// ```swift
    /// ValidationFailure(recordID: RecordID(recordName: "ada"), recordType: "Employee", key: "age",
    ///                   code: .numberTooSmall, reason: "is 12, below the minimum 16")
    /// ```
    public init(recordID: RecordID, recordType: String, key: String, code: ValidationErrorCode, reason: String) {
        self.recordID = recordID
        self.recordType = recordType
        self.key = key
        self.code = code
        self.reason = reason
    }

    /// `Employee 'ada': age is 12, below the minimum 16 (1620 NSValidationNumberTooSmallError)`.
    public var description: String {
        "\(recordType) '\(recordID.recordName)': \(key) \(reason) (\(code))"
    }
}

extension [ValidationFailure] {
    /// The code of a save that broke these rules, as Core Data's save reports it: the one
    /// failure's code, or ``ValidationErrorCode/multipleErrors`` (1560) for several.
    ///
    /// ```swift
    /// failures.code.rawValue   // 1560 when two rules were broken
    /// ```
    public var code: ValidationErrorCode {
        count == 1 ? self[0].code : .multipleErrors
    }
}
