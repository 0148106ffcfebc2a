/// How a save treats a record that is already stored (`CKModifyRecordsOperation.RecordSavePolicy`).
///
/// - ``ifServerRecordUnchanged``, the default everywhere: a record must carry the change tag of
///   the stored version (none when it is new), or the save is a conflict. Nothing written by
///   someone else is ever lost.
/// - ``allKeys``: the record replaces whatever is stored, whatever its change tag: an upsert
///   (GRDB's `save()`, SwiftData's unique attributes).
/// - ``changedKeys``: the fields the record holds replace the stored ones, and the stored fields
///   it does not hold are kept: a merge, also without a change tag.
///
/// ```swift
/// try store.save([Record(recordType: "City", recordID: RecordID(recordName: "1"), fields: ["name": "Paris"])], policy: .allKeys)
/// try store.save([Record(recordType: "City", recordID: RecordID(recordName: "1"), fields: ["population": 2_138_551])], policy: .changedKeys)
/// // record 1 now holds both fields
/// ```
public enum SavePolicy: Sendable, Hashable {
    /// Saves only over the version the record was read from (its change tag).
    case ifServerRecordUnchanged
    /// Replaces the stored record's fields with the ones given, keeping the others.
    case changedKeys
    /// Replaces the stored record entirely.
    case allKeys
}

extension Record {
    /// The stored version with this record's fields written over it, carrying the stored change
    /// tag (``SavePolicy/changedKeys``); this record as it is when nothing is stored.
    func merged(into stored: Record?) -> Record {
        guard var merged = stored else { return self }
        merged.recordType = recordType
        for (name, value) in fields { merged.fields[name] = value }
        return merged
    }
}
