import PredicateLanguage

/// Records laid over a store's while relationships are walked: records saved in place of the
/// stored ones (or besides them), and records deleted. A context's unsaved changes, so that a
/// pending model whose predicate walks a relationship reads its related records as the context
/// sees them, pending ones included, as Core Data evaluates the objects of its context.
///
/// ```swift
/// let overlay = RecordOverlay(saved: [newCustomer, newOrder], deleted: [RecordID(recordName: "o9")])
/// let matches = try store.records([newOrder], matching: FormatPredicate(format: "customer.name == 'Alice'"), overlaying: overlay)
/// ```
public struct RecordOverlay: Sendable {
    /// The records read in place of the stored records with their identifiers, or besides them.
    public var saved: [RecordID: Record]
    /// The records read as missing, stored or not.
    public var deleted: Set<RecordID>

    /// An overlay of saved and deleted records (a record both saved and deleted is deleted).
    public init(saved: [Record] = [], deleted: [RecordID] = []) {
        self.saved = Dictionary(saved.map { ($0.recordID, $0) }, uniquingKeysWith: { _, last in last })
        self.deleted = Set(deleted)
    }

    /// Whether it changes nothing.
    public var isEmpty: Bool { saved.isEmpty && deleted.isEmpty }
}

/// A source of related records with an overlay laid over another source: a record the overlay
/// saves is read in place of the stored one, one it deletes is missing, and the records of an
/// inverse to-many are the stored ones the overlay leaves alone plus the saved ones whose field
/// references a target.
struct OverlaidRelatedRecords<Base: RelatedRecordSource>: RelatedRecordSource {
    let base: Base
    let overlay: RecordOverlay

    func records(for ids: [RecordID]) async throws(RecordStoreError) -> [RecordID: Record] {
        let stored = ids.filter { overlay.saved[$0] == nil && !overlay.deleted.contains($0) }
        var found = stored.isEmpty ? [:] : try await base.records(for: stored)
        for id in ids where !overlay.deleted.contains(id) {
            if let saved = overlay.saved[id] { found[id] = saved }
        }
        return found
    }

    func records(
        ofType recordType: String, in zone: ZoneID, through field: String, referencingAnyOf targets: [RecordID]
    ) async throws(RecordStoreError) -> [Record] {
        let stored = try await base.records(ofType: recordType, in: zone, through: field, referencingAnyOf: targets)
        var found = stored.filter { overlay.saved[$0.recordID] == nil && !overlay.deleted.contains($0.recordID) }
        let wanted = Set(targets)
        var added = false
        for (id, record) in overlay.saved.sorted(by: { $0.key.recordName < $1.key.recordName })
        where record.recordType == recordType && id.zoneID == zone && !overlay.deleted.contains(id)
            && ReferenceLookup.referencedIDs(record.fields[field]).contains(where: wanted.contains) {
            found.append(record)
            added = true
        }
        // An inverse to-many reads in record-name order, as the engines answer it.
        if added { found.sort { $0.recordID.recordName < $1.recordID.recordName } }
        return found
    }
}
