/// What deleting an object does to the objects a relationship reaches (`deletionRule="Cascade"`).
///
/// ```swift
/// CoreDataDeletionRule(rawValue: "No Action")   // .noAction
/// ```
public enum CoreDataDeletionRule: String, Sendable, Hashable, Codable, CaseIterable {
    /// `Nullify`: the destinations' inverse no longer points at the deleted object.
    case nullify = "Nullify"
    /// `Cascade`: the destinations are deleted too.
    case cascade = "Cascade"
    /// `Deny`: the deletion fails while there are destinations.
    case deny = "Deny"
    /// `No Action`: nothing is done; the destinations may point at a deleted object.
    case noAction = "No Action"
}
