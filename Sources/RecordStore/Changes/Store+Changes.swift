import PredicateLanguage

extension Store {
    /// The records with these identifiers, each found or ``RecordStoreError/recordNotFound(_:)``
    /// (`CKFetchRecordsOperation`), read in one snapshot.
    ///
    /// ```swift
    /// let found = try store.records(for: [RecordID(recordName: "2988507"), RecordID(recordName: "nope")])
    /// found[RecordID(recordName: "nope")]   // .failure(.recordNotFound(nope))
    /// ```
    public func records(for ids: [RecordID]) throws(RecordStoreError) -> [RecordID: Result<Record, RecordStoreError>] {
        let found = try engine.records(for: ids.filter(\.canBeStored))
        var results: [RecordID: Result<Record, RecordStoreError>] = [:]
        for id in ids {
            results[id] = found[id].map { .success($0) } ?? .failure(.recordNotFound(id))
        }
        return results
    }

    /// Saves and deletes records (`CKModifyRecordsOperation`), with a result per record.
    ///
    /// Atomically (the default), everything is written in one transaction or nothing is: when a
    /// record fails, it carries its error and every other record ``RecordStoreError/batchRequestFailed(_:)``
    /// (errors that name no single record go to every record). Not atomically, each save and
    /// delete is its own transaction, and each record reports its own outcome.
    ///
    /// Saves are always checked against the change tag each record carries. Deletions are
    /// unconditional, as in CloudKit, unless `expectedChangeTags` names them: then a deletion
    /// is a ``RecordStoreError/conflict(_:expected:found:)`` when the stored record no longer
    /// has that change tag or is gone (what a Core Data context needs to delete only the
    /// version it read).
    ///
    /// ```swift
    /// let result = try store.modify(saving: [changedCity], deleting: [RecordID(recordName: "old")])
    /// guard result.isSuccess else { print(result.errors) }
    ///
    /// // Delete "old" only if nobody changed it since we read it.
    /// try store.modify(saving: [], deleting: [old.recordID], expectedChangeTags: [old.recordID: old.recordChangeTag ?? ""])
    /// ```
    @discardableResult
    public func modify(
        saving records: [Record], deleting ids: [RecordID], expectedChangeTags: [RecordID: String] = [:], atomically: Bool = true
    ) throws(RecordStoreError) -> ModifyResult {
        var saveResults: [RecordID: Result<Record, RecordStoreError>] = [:]
        var deleteResults: [RecordID: Result<Void, RecordStoreError>] = [:]
        if atomically {
            do {
                let saved = try engine.modify(
                    saving: records, deleting: ids.filter(\.canBeStored), expectedChangeTags: expectedChangeTags, mode: mode)
                for record in saved { saveResults[record.recordID] = .success(record) }
                for id in ids { deleteResults[id] = .success(()) }
            } catch {
                if case .storage = error { throw error }
                let culprits = Self.culprits(of: error, records: records, ids: ids)
                for record in records {
                    let id = record.recordID
                    saveResults[id] = .failure(culprits.isEmpty || culprits.contains(id) ? error : .batchRequestFailed(id))
                }
                for id in ids {
                    deleteResults[id] = .failure(culprits.isEmpty || culprits.contains(id) ? error : .batchRequestFailed(id))
                }
            }
            return ModifyResult(saveResults: saveResults, deleteResults: deleteResults)
        }
        for record in records {
            do {
                let saved = try engine.modify(saving: [record], deleting: [], expectedChangeTags: [:], mode: mode)
                saveResults[record.recordID] = saved.first.map { .success($0) } ?? .failure(.recordNotFound(record.recordID))
            } catch {
                if case .storage = error { throw error }
                saveResults[record.recordID] = .failure(error)
            }
        }
        for id in ids {
            do throws(RecordStoreError) {
                if id.canBeStored {
                    _ = try engine.modify(saving: [], deleting: [id], expectedChangeTags: expectedChangeTags.filter { $0.key == id }, mode: mode)
                } else if let expected = expectedChangeTags[id] {
                    throw .conflict(id, expected: expected, found: nil)
                }
                deleteResults[id] = .success(())
            } catch {
                if case .storage = error { throw error }
                deleteResults[id] = .failure(error)
            }
        }
        return ModifyResult(saveResults: saveResults, deleteResults: deleteResults)
    }

    /// The records an error is about, when it names them.
    private static func culprits(of error: RecordStoreError, records: [Record], ids: [RecordID]) -> Set<RecordID> {
        switch error {
        case .conflict(let id, _, _), .duplicateRecordID(let id), .recordNotFound(let id):
            return [id]
        case .zoneNotFound(let zone):
            return Set(records.map(\.recordID).filter { $0.zoneID == zone } + ids.filter { $0.zoneID == zone })
        case .invalidRecordName(let name):
            return Set(records.map(\.recordID).filter { $0.recordName == name })
        case .typeMismatch(_, let recordType, _, _), .unsupportedValue(_, let recordType, _),
             .invalidFieldName(_, let recordType), .schemaChangeNotAllowed(let recordType, _), .unknownField(_, let recordType):
            return Set(records.filter { $0.recordType == recordType }.map(\.recordID))
        default:
            return []
        }
    }
}
