/// What a save decided to write, after every check passed: each record stamped with its new
/// change tag and dates, with the stored version it replaces, then the deletions. An engine
/// applies a plan without further checks (``RecordWriteTransaction/apply(_:catalog:)``).
///
/// ```swift
/// let plan = try SaveRules.plan(admitted, changes: changes, stored: stored, existingZones: zones, now: Date())
/// plan.saved   // what the save returns
/// ```
package struct WritePlan: Sendable {
    /// One record to write.
    package struct Write: Sendable {
        /// The record as it will be stored (new change tag and dates).
        package var record: Record
        /// The stored version it replaces; nil for a new record.
        package var replacing: StoredVersion?

        /// Whether the stored record had another type: the engine removes it, then inserts.
        package var changesRecordType: Bool {
            replacing.map { $0.recordType != record.recordType } ?? false
        }
    }

    /// The records to write, in the order given.
    package var writes: [Write]
    /// The records to delete after the writes (whatever is stored under each identifier then).
    package var deletions: [RecordID]

    /// The records the save returns.
    package var saved: [Record] { writes.map(\.record) }
}
