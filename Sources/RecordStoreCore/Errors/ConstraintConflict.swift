import PredicateLanguage

/// One uniqueness-constraint conflict of a save (Core Data's `NSConstraintConflict`), as
/// ``RecordStoreError/constraintConflict(_:)`` reports it under ``MergePolicy/error``: the record
/// the save writes, the record that already holds the same values (stored, or earlier in the
/// same save), the constraint and the values.
///
/// ```swift
/// do {
///     try await store.save([newAda])
/// } catch .constraintConflict(let conflicts) {
///     conflicts[0].constraint        // ["email"]
///     conflicts[0].existing          // the stored record holding that email
/// }
/// ```
public struct ConstraintConflict: Sendable, Hashable, CustomStringConvertible {
    /// The record type whose constraint it is.
    public var recordType: String
    /// The constrained fields, in the constraint's order.
    public var constraint: [String]
    /// The values they hold in both records, in the same order.
    public var values: [Value]
    /// The record the save writes.
    public var saving: RecordID
    /// The record that holds the same values: stored, or written earlier in the save.
    public var existing: RecordID

    /// A conflict.
    ///
    /// ```swift
    /// ConstraintConflict(recordType: "Employee", constraint: ["email"], values: ["ada@example.com"],
    ///                    saving: RecordID(recordName: "new"), existing: RecordID(recordName: "ada"))
    /// ```
    public init(recordType: String, constraint: [String], values: [Value], saving: RecordID, existing: RecordID) {
        self.recordType = recordType
        self.constraint = constraint
        self.values = values
        self.saving = saving
        self.existing = existing
    }

    /// `Employee 'new' has email == "ada@example.com", as 'ada' does (constraint email)`.
    public var description: String {
        let pairs = zip(constraint, values).map { "\($0) == \($1)" }.joined(separator: " AND ")
        let zone = saving.zoneID == .default ? "" : " in zone '\(saving.zoneID.zoneName)'"
        return "\(recordType) '\(saving.recordName)' has \(pairs), as '\(existing.recordName)' does\(zone) "
            + "(uniqueness constraint \(constraint.joined(separator: ", ")))"
    }
}
