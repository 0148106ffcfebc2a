/// The per-record outcome of ``Store/modify(saving:deleting:expectedChangeTags:atomically:author:mergePolicy:)-dibm``, as CloudKit's
/// modify-records operation reports it.
///
/// ```swift
/// let result = try store.modify(saving: [paris], deleting: [oldID], atomically: false)
/// if case .failure(let error) = result.saveResults[paris.recordID] { print(error) }
/// ```
public struct ModifyResult: Sendable {
    /// Each record to save: the saved record (new change tag and dates) or why it was not saved.
    public var saveResults: [RecordID: Result<Record, RecordStoreError>]
    /// Each record to delete: success (also when nothing was stored) or why it was not deleted.
    public var deleteResults: [RecordID: Result<Void, RecordStoreError>]

    /// Creates a result.
    public init(saveResults: [RecordID: Result<Record, RecordStoreError>], deleteResults: [RecordID: Result<Void, RecordStoreError>]) {
        self.saveResults = saveResults
        self.deleteResults = deleteResults
    }

    /// The errors by record, empty when everything succeeded.
    ///
    /// ```swift
    /// for (id, error) in result.errors { print(id, error) }
    /// ```
    public var errors: [RecordID: RecordStoreError] {
        var errors: [RecordID: RecordStoreError] = [:]
        for (id, result) in saveResults { if case .failure(let error) = result { errors[id] = error } }
        for (id, result) in deleteResults { if case .failure(let error) = result { errors[id] = error } }
        return errors
    }

    /// Whether every save and delete succeeded.
    public var isSuccess: Bool { errors.isEmpty }
}
