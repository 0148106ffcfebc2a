/// What a save decided to write, after every check passed: each record stamped with its new
/// change tag and dates, with the stored version it replaces, then the deletions. An engine
/// applies a plan without further checks (``RecordWriteTransaction/apply(_:catalog:)``).
///
/// ```swift
/// let plan = try SaveRules.plan(admitted, changes: changes, stored: stored, existingZones: zones, now: Date())
/// plan.saved   // what the save returns
/// ```
@_spi(StorageEngine) public struct WritePlan: Sendable {
    /// One record to write.
    @_spi(StorageEngine) public struct Write: Sendable {
        /// The record as it will be stored (new change tag and dates).
        @_spi(StorageEngine) public var record: Record
        /// The stored version it replaces; nil for a new record.
        @_spi(StorageEngine) public var replacing: StoredVersion?
        /// Whether a deletion rule wrote it (a nullify), not the caller: the save does not
        /// return it, the change feed and the engine treat it as any other write.
        @_spi(StorageEngine) public var byDeletionRule: Bool = false
        /// When known, the only fields this write changes of the stored record it updates (of the
        /// same type): the fields a batch update sets (``RecordChangeSet/changedFields``). The
        /// other fields are the stored ones, so an engine may leave their columns, list members
        /// and full-text document as they are. Nil: write everything.
        @_spi(StorageEngine) public var changedFields: Set<String>? = nil

        /// Whether the stored record had another type: the engine removes it, then inserts.
        @_spi(StorageEngine) public var changesRecordType: Bool {
            replacing.map { $0.recordType != record.recordType } ?? false
        }
    }

    /// The records to write, in the order given.
    @_spi(StorageEngine) public var writes: [Write]
    /// The records to delete after the writes (whatever is stored under each identifier then):
    /// the caller's, then those the deletion rules cascade to (``DeletionRuleExpansion``).
    @_spi(StorageEngine) public var deletions: [RecordID]

    /// The change position the save's changes carry in the store's history (set once the
    /// decision is made, ``RecordWriteTransaction/nextChangePosition()``; 0 before).
    @_spi(StorageEngine) public var changePosition: Int64 = 0

    /// When the save's uniqueness constraints were resolved by a merge policy
    /// (``ConstraintResolution``): the record each of the caller's saves landed on, in their
    /// order (its own, or the existing record it was merged into). Nil: the writes are the saves.
    @_spi(StorageEngine) public var returned: [RecordID]? = nil
    /// Records the save returns without writing them: the existing records a
    /// ``MergePolicy/rollback`` kept as they are stored.
    @_spi(StorageEngine) public var kept: [RecordID: Record] = [:]

    /// Whether the plan writes or deletes anything.
    @_spi(StorageEngine) public var isEmpty: Bool { writes.isEmpty && deletions.isEmpty }

    /// The records the save returns.
    @_spi(StorageEngine) public var saved: [Record] {
        guard let returned else { return writes.compactMap { $0.byDeletionRule ? nil : $0.record } }
        var latest = kept
        for write in writes { latest[write.record.recordID] = write.record }
        return returned.compactMap { latest[$0] }
    }
}
