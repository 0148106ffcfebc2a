import PredicateLanguage

/// What a batch request does to each record it matches: deletes it, or sets fields on it.
///
/// It is the part `Store.deleteRecords(matching:author:)` and
/// `Store.updateRecords(matching:set:author:)` differ in; both run through `Store.runBatch(_:_:author:)`.
package enum BatchChange: Sendable {
    /// Delete every match.
    case delete
    /// Set these fields on every match; a `.null` value removes the field.
    case update([String: Value])

    /// The write that applies this change to the records matched: deletions that expect each
    /// record's change tag, or saves of the records with their fields set, over the change tag
    /// they were read with. Either way, a record changed since it was read makes it a conflict.
    /// The records are set in place (handed over, their fields are not copied).
    func changeSet(for matches: consuming [Record], author: String?) -> RecordChangeSet {
        switch self {
        case .delete:
            var expected: [RecordID: String] = [:]
            expected.reserveCapacity(matches.count)
            var deleting: [RecordID] = []
            deleting.reserveCapacity(matches.count)
            for record in matches {
                expected[record.recordID] = record.recordChangeTag
                deleting.append(record.recordID)
            }
            return RecordChangeSet(deleting: deleting, expectedChangeTags: expected, author: author)
        case .update(let values):
            var updated = matches
            for index in updated.indices {
                for (field, value) in values {
                    if case .null = value { updated[index].fields[field] = nil } else { updated[index].fields[field] = value }
                }
            }
            var changes = RecordChangeSet(saving: updated, author: author)
            changes.changedFields = Set(values.keys)
            return changes
        }
    }
}
