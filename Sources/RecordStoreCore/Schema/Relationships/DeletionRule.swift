/// What deleting a record does to the records one of its relationships reaches, as Core Data's
/// deletion rules say. Applied by every save, in the save's transaction (``SaveProcedure``).
///
/// CloudKit's reference action `DELETE_SELF` (a child deleted with its parent) is
/// ``cascade`` on the parent's to-many relationship.
///
/// ```swift
/// RelationshipSchema.toMany("employees", destination: "Employee", inverse: "department", deletionRule: .cascade)
/// ```
public enum DeletionRule: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The records reached no longer reference the deleted record: a to-one is set to nil, a
    /// member of a reference list is removed. The default.
    case nullify
    /// The records reached are deleted too, and their own rules apply.
    case cascade
    /// The delete is refused while the relationship reaches any record.
    case deny
    /// Nothing is done: the records reached may keep a reference to the deleted record, which
    /// then reads as nil (a dangling reference).
    case noAction

    /// The rule as Core Data's model files spell it: `Nullify`, `Cascade`, `Deny`, `No Action`.
    public var description: String {
        switch self {
        case .nullify: "Nullify"
        case .cascade: "Cascade"
        case .deny: "Deny"
        case .noAction: "No Action"
        }
    }
}
