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
        try synchronously { try await self.records(for: ids) }
    }

    /// The records with these identifiers, each found or ``RecordStoreError/recordNotFound(_:)`` (async).
    ///
    /// ```swift
    /// let found = try await store.records(for: [RecordID(recordName: "2988507")])
    /// ```
    public func records(for ids: [RecordID]) async throws(RecordStoreError) -> [RecordID: Result<Record, RecordStoreError>] {
        Self.lookupResults(ids, found: try await lookup(ids.filter(\.canBeStored)))
    }

    private static func lookupResults(_ ids: [RecordID], found: [RecordID: Record]) -> [RecordID: Result<Record, RecordStoreError>] {
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
    /// `author` names the user the write is made for (a server's signed-in user, say): each
    /// saved record gets it as its ``Record/lastModifiedUserRecordName``, and a record the
    /// write creates as its ``Record/creatorUserRecordName`` too (an update keeps its creator).
    /// Both are metadata a predicate or sort can name (`creatorUserRecordName == %@`).
    ///
    /// `mergePolicy` resolves the saves' uniqueness-constraint conflicts (``MergePolicy``; by
    /// default ``MergePolicy/error``, which fails them with ``RecordStoreError/constraintConflict(_:)``).
    /// A save merged into an existing record has that record as its result.
    ///
    /// ```swift
    /// let result = try store.modify(saving: [changedCity], deleting: [RecordID(recordName: "old")])
    /// guard result.isSuccess else { print(result.errors) }
    ///
    /// // Delete "old" only if nobody changed it since we read it.
    /// try store.modify(saving: [], deleting: [old.recordID], expectedChangeTags: [old.recordID: old.recordChangeTag ?? ""])
    ///
    /// // Saved on behalf of a user: they are its creator and last modifier.
    /// let saved = try store.modify(saving: [newCity], deleting: [], author: "_0d9c1e7f2a6b4c3d8e5f1a2b3c4d5e6f")
    /// ```
    @discardableResult
    public func modify(
        saving records: [Record], deleting ids: [RecordID], expectedChangeTags: [RecordID: String] = [:], atomically: Bool = true,
        author: String? = nil, mergePolicy: MergePolicy = .error
    ) throws(RecordStoreError) -> ModifyResult {
        try synchronously {
            try await self.modify(
                saving: records, deleting: ids, expectedChangeTags: expectedChangeTags, atomically: atomically, author: author, mergePolicy: mergePolicy)
        }
    }

    /// Saves and deletes records (async), with a result per record; see the synchronous form.
    ///
    /// ```swift
    /// let result = try await store.modify(saving: [changedCity], deleting: [RecordID(recordName: "old")])
    /// ```
    @discardableResult
    public func modify(
        saving records: [Record], deleting ids: [RecordID], expectedChangeTags: [RecordID: String] = [:], atomically: Bool = true,
        author: String? = nil, mergePolicy: MergePolicy = .error
    ) async throws(RecordStoreError) -> ModifyResult {
        try await modify(
            saving: records, deleting: ids, expectedChangeTags: expectedChangeTags, overwriting: [], atomically: atomically, author: author,
            mergePolicy: mergePolicy)
    }

    /// The modify of `modify(saving:deleting:expectedChangeTags:atomically:author:mergePolicy:)`, where the
    /// saves of `overwriting` replace what is stored without checking change tags (a
    /// `ModelContext`'s inserts).
    package func modify(
        saving records: [Record], deleting ids: [RecordID], expectedChangeTags: [RecordID: String], overwriting: Set<RecordID>, atomically: Bool,
        author: String? = nil, mergePolicy: MergePolicy = .error
    ) async throws(RecordStoreError) -> ModifyResult {
        var batch = ModifyBatch(
            saving: records, deleting: ids, expectedChangeTags: expectedChangeTags, overwriting: overwriting, atomically: atomically, author: author,
            mergePolicy: mergePolicy)
        for (index, step) in batch.steps.enumerated() {
            let outcome: Result<[Record], RecordStoreError>
            do {
                outcome = .success(try await write(step))
            } catch {
                outcome = .failure(error)
            }
            try batch.receive(outcome, forStep: index)
        }
        return batch.result
    }
}
