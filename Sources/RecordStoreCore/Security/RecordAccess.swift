/// Which records of a type a permission reaches for a principal
/// (``SecurityPolicy/access(_:to:for:)``).
///
/// ```swift
/// switch policy.access(.read, to: "Note", for: principal) {
/// case .allRecords: break                               // query as asked
/// case .ownRecords: break                               // add creatorUserRecordName == the user
/// case .none: break                                     // ACCESS_DENIED
/// }
/// ```
public enum RecordAccess: Sendable, Hashable {
    /// Every record of the type.
    case allRecords
    /// The records the principal created (the permission is granted to `_creator` alone).
    case ownRecords
    /// No record of the type.
    case none
}
