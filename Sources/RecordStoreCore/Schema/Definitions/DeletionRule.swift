/// What deleting a record does to the records one of its relationships reaches, as Core Data's
/// deletion rules say. Applied by every save, in the save's transaction (`SaveProcedure`).
///
/// CloudKit's reference action `DELETE_SELF` (a child deleted with its parent) is
/// ``cascade`` on the parent's to-many relationship when every child's reference carries it;
/// kept per reference value, as CloudKit keeps it, it is ``DeleteSelfReferences``.
///
/// A rule reaches, from a deleted record: through an inverse to-many, the destination's records
/// in the same zone whose inverse field references it; through a to-one or a reference list,
/// the records it references (nullify and no action do nothing there: nothing stored points
/// back). Cascades apply their records' own rules in turn; a deny blocker deleted by the same
/// save does not block. A record the caller saves in the same save is judged by the caller's
/// version and never rewritten or deleted by a rule (the caller's version wins): if it still
/// references a deleted record, a cascade or nullify leaves that reference dangling and a deny
/// refuses the save.
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
