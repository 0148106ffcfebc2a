import PredicateLanguage

/// What every storage engine does; ``Store`` is the public face over one engine.
protocol StorageEngine: Sendable {
    /// The engine's name in plans: `memory` or `sqlite`.
    var name: String { get }
    /// Saves records in one transaction (all or none), with optimistic concurrency.
    func save(_ records: [Record], mode: SchemaMode) throws(RecordStoreError) -> [Record]
    /// Deletes records; missing ones are ignored.
    func delete(_ ids: [RecordID]) throws(RecordStoreError)
    /// The stored record with this identity.
    func record(for id: RecordID) throws(RecordStoreError) -> Record?
    /// Creates a zone (no-op when it exists).
    func createZone(_ zone: ZoneID) throws(RecordStoreError)
    /// The zones, the default one first.
    func zones() throws(RecordStoreError) -> [ZoneID]
    /// Deletes a zone and its records.
    func deleteZone(_ zone: ZoneID) throws(RecordStoreError)
    /// The current schema.
    func catalog() throws(RecordStoreError) -> SchemaCatalog
    /// Adds or updates a record type's schema.
    func define(_ schema: RecordTypeSchema) throws(RecordStoreError)
    /// The records a query selects, in order.
    func records(_ specification: QuerySpecification) throws(RecordStoreError) -> [Record]
    /// How many records a query selects.
    func count(_ specification: QuerySpecification) throws(RecordStoreError) -> Int
    /// How the engine runs a query.
    func explain(_ specification: QuerySpecification) throws(RecordStoreError) -> QueryPlan

    /// Refreshes whatever statistics the engine's query planner uses (after a bulk import).
    func optimize() throws(RecordStoreError)
    /// The store's identity and cursor-signing key.
    var cursorSecret: CursorSecret { get }
    /// Saves and deletes in one transaction (all or none); returns the saved records. A deletion
    /// whose identifier is in `expectedChangeTags` is a conflict unless the stored record still
    /// has that change tag.
    func modify(
        saving records: [Record], deleting ids: [RecordID], expectedChangeTags: [RecordID: String], mode: SchemaMode
    ) throws(RecordStoreError) -> [Record]
    /// The stored records with these identifiers (missing ones absent), read in one snapshot.
    func records(for ids: [RecordID]) throws(RecordStoreError) -> [RecordID: Record]
    /// One row per group of the matching records: the group-by fields and the aggregates (nil values left out).
    func aggregate(_ specification: QuerySpecification, groupBy: [String], aggregates: [AggregateProperty]) throws(RecordStoreError) -> [[String: Value]]
}

/// The stored state of a record that a save checks and carries over.
struct StoredVersion: Sendable {
    var recordType: String
    var changeTag: String?
    var creationDate: Date?
}

import Foundation

/// The save rules both engines share: duplicate and conflict checks, and new metadata.
enum SaveRules {
    /// Throws a conflict when a deletion expects a change tag the stored record no longer has
    /// (or the record is gone).
    static func checkDeletion(_ id: RecordID, expected: String?, stored: String?, exists: Bool) throws(RecordStoreError) {
        guard let expected else { return }
        if !exists || stored != expected { throw .conflict(id, expected: expected, found: exists ? stored : nil) }
    }

    /// Rejects a record that appears twice.
    static func checkDuplicates(_ records: [Record]) throws(RecordStoreError) {
        var seen = Set<RecordID>()
        for record in records where !seen.insert(record.recordID).inserted {
            throw .duplicateRecordID(record.recordID)
        }
    }

    /// Throws a conflict when the record's change tag does not match the stored version.
    static func checkConflict(_ record: Record, stored: StoredVersion?) throws(RecordStoreError) {
        if record.recordChangeTag != stored?.changeTag || (record.recordChangeTag == nil && stored != nil) {
            throw .conflict(record.recordID, expected: record.recordChangeTag, found: stored?.changeTag)
        }
    }

    /// The record with its new change tag and dates.
    static func stamped(_ record: Record, stored: StoredVersion?, now: Date) -> Record {
        var saved = record
        saved.creationDate = stored?.creationDate ?? now
        saved.modificationDate = now
        saved.recordChangeTag = newChangeTag(different: stored?.changeTag)
        return saved
    }

    /// A fresh change tag: eight hexadecimal digits, never equal to the previous one.
    static func newChangeTag(different previous: String?) -> String {
        while true {
            let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
            let padded = String(repeating: "0", count: 8 - tag.count) + tag
            if padded != previous { return padded }
        }
    }
}
