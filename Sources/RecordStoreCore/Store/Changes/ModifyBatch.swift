/// The steps of ``Store/modify(saving:deleting:expectedChangeTags:atomically:author:)`` and the
/// per-record outcome they add up to: one transaction for an atomic batch, or one per record
/// and deletion otherwise. The synchronous and `async` drivers only run the steps.
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `RecordChangeSet`,
/// `PendingChangeSet` and `CommittedChanges`.
package struct ModifyBatch {
    private let records: [Record]
    private let ids: [RecordID]
    private let atomically: Bool
    /// The change sets to run, in order.
    private(set) var steps: [RecordChangeSet] = []
    /// What each step is about: a save (by record index) or a deletion (by identifier index).
    private var subjects: [Subject] = []
    private var saveResults: [RecordID: Result<Record, RecordStoreError>] = [:]
    private var deleteResults: [RecordID: Result<Void, RecordStoreError>] = [:]

    private enum Subject {
        case all
        case save(Int)
        case delete(Int)
    }

    /// The steps of a modify; the saves of `overwriting` replace what is stored (``SavePolicy/allKeys``);
    /// uniqueness-constraint conflicts are resolved by `mergePolicy` in every step.
    package init(
        saving records: [Record], deleting ids: [RecordID], expectedChangeTags: [RecordID: String], overwriting: Set<RecordID> = [], atomically: Bool,
        author: String? = nil, mergePolicy: MergePolicy = .error
    ) {
        defer { for index in steps.indices { steps[index].mergePolicy = mergePolicy } }
        self.records = records
        self.ids = ids
        self.atomically = atomically
        if atomically {
            steps = [RecordChangeSet(
                saving: records, deleting: ids.filter(\.canBeStored), expectedChangeTags: expectedChangeTags, overwriting: overwriting, author: author)]
            subjects = [.all]
            return
        }
        for index in records.indices {
            steps.append(RecordChangeSet(saving: [records[index]], overwriting: overwriting.intersection([records[index].recordID]), author: author))
            subjects.append(.save(index))
        }
        for (index, id) in ids.enumerated() {
            if id.canBeStored {
                steps.append(RecordChangeSet(deleting: [id], expectedChangeTags: expectedChangeTags.filter { $0.key == id }, author: author))
                subjects.append(.delete(index))
            } else if let expected = expectedChangeTags[id] {
                // A record that cannot be stored is never there: expecting a version of it is a conflict.
                deleteResults[id] = .failure(.conflict(id, expected: expected, found: nil))
            } else {
                deleteResults[id] = .success(())
            }
        }
    }

    /// Takes the outcome of step `index`; a storage failure (the database itself) is rethrown.
    package mutating func receive(_ outcome: Result<[Record], RecordStoreError>, forStep index: Int) throws(RecordStoreError) {
        if case .failure(let error) = outcome, case .storage = error { throw error }
        switch (subjects[index], outcome) {
        case (.all, .success(let saved)):
            // One saved record per record given, in order; under a merge policy, a record may
            // have landed on another (``MergePolicy``).
            if saved.count == records.count {
                for (record, result) in zip(records, saved) { saveResults[record.recordID] = .success(result) }
            } else {
                for record in saved { saveResults[record.recordID] = .success(record) }
            }
            for id in ids { deleteResults[id] = .success(()) }
        case (.all, .failure(let error)):
            // When the error names none of the batch's records (a rule broken by a record the
            // batch changed indirectly), every record carries it.
            let culprits = Self.culprits(of: error, records: records, ids: ids)
                .intersection(records.map(\.recordID) + ids)
            for record in records {
                let id = record.recordID
                saveResults[id] = .failure(culprits.isEmpty ? error : culprits.contains(id) ? Self.error(error, of: id) : .batchRequestFailed(id))
            }
            for id in ids {
                deleteResults[id] = .failure(culprits.isEmpty ? error : culprits.contains(id) ? Self.error(error, of: id) : .batchRequestFailed(id))
            }
        case (.save(let position), .success(let saved)):
            let id = records[position].recordID
            saveResults[id] = saved.first.map { .success($0) } ?? .failure(.recordNotFound(id))
        case (.save(let position), .failure(let error)):
            saveResults[records[position].recordID] = .failure(error)
        case (.delete(let position), .success):
            deleteResults[ids[position]] = .success(())
        case (.delete(let position), .failure(let error)):
            deleteResults[ids[position]] = .failure(error)
        }
    }

    /// The outcome of every record.
    package var result: ModifyResult {
        ModifyResult(saveResults: saveResults, deleteResults: deleteResults)
    }

    /// The part of an error that is about one record: a validation failure's own rules, the
    /// constraint conflicts it saves.
    private static func error(_ error: RecordStoreError, of id: RecordID) -> RecordStoreError {
        switch error {
        case .validationFailed(let failures): .validationFailed(failures.filter { $0.recordID == id })
        case .constraintConflict(let conflicts): .constraintConflict(conflicts.filter { $0.saving == id })
        default: error
        }
    }

    /// The records an error is about, when it names them.
    private static func culprits(of error: RecordStoreError, records: [Record], ids: [RecordID]) -> Set<RecordID> {
        switch error {
        case .conflict(let id, _, _), .duplicateRecordID(let id), .recordNotFound(let id), .deleteDenied(let id, _, _, _):
            return [id]
        case .validationFailed(let failures):
            return Set(failures.map(\.recordID))
        case .constraintConflict(let conflicts):
            return Set(conflicts.map(\.saving))
        case .zoneNotFound(let zone):
            return Set(records.map(\.recordID).filter { $0.zoneID == zone } + ids.filter { $0.zoneID == zone })
        case .invalidRecordName(let name):
            return Set(records.map(\.recordID).filter { $0.recordName == name })
        case .typeMismatch(_, let recordType, _, _), .unsupportedValue(_, let recordType, _),
             .invalidFieldName(_, let recordType), .schemaChangeNotAllowed(let recordType, _), .unknownField(_, let recordType, _):
            return Set(records.filter { $0.recordType == recordType }.map(\.recordID))
        default:
            return []
        }
    }
}
