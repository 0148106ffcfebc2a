/// How a save resolves a uniqueness-constraint conflict (Core Data's `NSMergePolicy`): a record
/// it inserts or updates whose constrained fields (``RecordTypeSchema/uniquenessConstraints``)
/// equal those of another record of its type in its zone, stored or saved earlier in the same
/// save.
///
/// In each conflict, the *saving* record is the one the save writes, and the *existing* record
/// is the stored one (or the one earlier in the save). The saving record's *changes* are, for a
/// new record, every field it holds, and for an update, the fields whose values differ from its
/// stored version (a field removed counts). The policies:
///
/// - ``error`` (the default): the save fails with ``RecordStoreError/constraintConflict(_:)``,
///   naming every conflict; nothing is written.
/// - ``mergeByPropertyObjectTrump``: the saving record's changes are written over the existing
///   record's fields; the result is saved under the **existing** record's identifier.
/// - ``mergeByPropertyStoreTrump``: the existing record keeps every field it holds; the saving
///   record's changes fill only the fields it does not hold.
/// - ``overwrite``: the existing record's fields are replaced by the saving record's, wholly
///   (fields the saving record does not hold are removed).
/// - ``rollback``: the saving record's changes are discarded; the existing record stays as it is
///   (an update keeps its stored version).
///
/// Under the three merging policies, one record remains: the existing one, with the merged
/// fields, a new change tag and modification date, and its creation date and creator. A field
/// that holds each record's own record name (a model's `id`) is an identity, not a property: the
/// existing record keeps its own. A new
/// saving record is not inserted; an updated one, stored under another identifier, is deleted
/// (its deletion rules apply), as Core Data deletes the conflicting object it merged. The save
/// returns, in the saving record's place, the record it landed on.
///
/// ```swift
/// // "ada" is stored with email ada@example.com; a new record with the same email:
/// let saved = try store.save([newAda], mergePolicy: .mergeByPropertyObjectTrump)
/// saved[0].recordID   // the stored "ada", holding newAda's fields over its own
/// ```
public enum MergePolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Fails the save with ``RecordStoreError/constraintConflict(_:)`` (`NSErrorMergePolicy`).
    case error
    /// The saving record's changed fields win, the existing record's fill the rest
    /// (`NSMergeByPropertyObjectTrumpMergePolicy`).
    case mergeByPropertyObjectTrump
    /// The existing record's fields win, the saving record's changes fill the fields it lacks
    /// (`NSMergeByPropertyStoreTrumpMergePolicy`).
    case mergeByPropertyStoreTrump
    /// The saving record's fields replace the existing record's entirely (`NSOverwriteMergePolicy`).
    case overwrite
    /// The saving record's changes are discarded (`NSRollbackMergePolicy`).
    case rollback
}
