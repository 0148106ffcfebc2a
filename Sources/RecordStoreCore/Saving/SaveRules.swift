import Foundation

/// The rules every engine's save follows, in one place: no record twice, the zone must exist,
/// optimistic concurrency by change tag, and new metadata on every saved record.
///
/// ```swift
/// try SaveRules.checkDuplicates(records)
/// let plan = try SaveRules.plan(admitted, changes: changes, stored: stored, existingZones: zones, now: Date())
/// ```
package enum SaveRules {
    /// Rejects a record that appears twice.
    package static func checkDuplicates(_ records: [Record]) throws(RecordStoreError) {
        var seen = Set<RecordID>()
        for record in records where !seen.insert(record.recordID).inserted {
            throw .duplicateRecordID(record.recordID)
        }
    }

    /// Checks the admitted records and the deletions against what is stored, and stamps the
    /// records: the first failure (in the order given, saves before deletions) is thrown.
    ///
    /// - Parameters:
    ///   - admitted: the records to save, already admitted by the catalog (``SchemaCatalog/admit(_:mode:)``).
    ///   - changes: the change set, for its deletions and expected change tags.
    ///   - stored: the stored versions of the records saved and deleted (absent: not stored).
    ///   - existingZones: the zones, among those of the saved records, that exist.
    ///   - now: the modification date of every saved record.
    package static func plan(
        _ admitted: [Record], changes: RecordChangeSet, stored: [RecordID: StoredVersion],
        existingZones: Set<ZoneID>, now: Date
    ) throws(RecordStoreError) -> WritePlan {
        var writes: [WritePlan.Write] = []
        writes.reserveCapacity(admitted.count)
        var tags = ChangeTagGenerator()
        for record in admitted {
            let zone = record.recordID.zoneID
            guard zone == .default || existingZones.contains(zone) else { throw .zoneNotFound(zone) }
            let version = stored[record.recordID]
            if !changes.overwriting.contains(record.recordID) { try checkConflict(record, stored: version) }
            var write = WritePlan.Write(record: stamped(record, stored: version, author: changes.author, now: now, tags: &tags), replacing: version)
            if let version, version.recordType == record.recordType { write.changedFields = changes.changedFields }
            writes.append(write)
        }
        for id in changes.deleting {
            let version = stored[id]
            try checkDeletion(id, expected: changes.expectedChangeTags[id], stored: version?.changeTag, exists: version != nil)
        }
        return WritePlan(writes: writes, deletions: changes.deleting)
    }

    /// Throws a conflict when a deletion expects a change tag the stored record no longer has
    /// (or the record is gone).
    package static func checkDeletion(_ id: RecordID, expected: String?, stored: String?, exists: Bool) throws(RecordStoreError) {
        guard let expected else { return }
        if !exists || stored != expected { throw .conflict(id, expected: expected, found: exists ? stored : nil) }
    }

    /// Throws a conflict when the record's change tag does not match the stored version.
    package static func checkConflict(_ record: Record, stored: StoredVersion?) throws(RecordStoreError) {
        if record.recordChangeTag != stored?.changeTag || (record.recordChangeTag == nil && stored != nil) {
            throw .conflict(record.recordID, expected: record.recordChangeTag, found: stored?.changeTag)
        }
    }

    /// The record with its new change tag (from `tags`), dates and authors: an update keeps the
    /// stored creation date and creator, and `author` is its last modifier.
    package static func stamped(_ record: Record, stored: StoredVersion?, author: String?, now: Date, tags: inout ChangeTagGenerator) -> Record {
        var saved = record
        saved.creationDate = stored?.creationDate ?? now
        saved.creatorUserRecordName = stored == nil ? author : stored?.creatorUserRecordName
        saved.lastModifiedUserRecordName = author
        saved.modificationDate = now
        saved.recordChangeTag = tags.next(different: stored?.changeTag)
        return saved
    }
}
