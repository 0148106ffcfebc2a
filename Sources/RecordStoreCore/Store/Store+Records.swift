import PredicateLanguage

extension Store {
    /// Saves records in one transaction: all of them or, on any error, none.
    ///
    /// A new record must have no change tag; an update must carry the change tag of the
    /// stored version (as fetched), or the save fails with ``RecordStoreError/conflict(_:expected:found:)``.
    /// Returns the records as saved, with their new change tags and dates.
    ///
    /// ```swift
    /// var saved = try store.save([paris])[0]
    /// saved["population"] = 2_145_906
    /// saved = try store.save([saved])[0]     // ok: the change tag matches
    /// ```
    @discardableResult
    public func save(_ records: [Record]) throws(RecordStoreError) -> [Record] {
        try synchronously { try await self.save(records) }
    }

    /// Saves records in one transaction (async): all of them or, on any error, none.
    ///
    /// ```swift
    /// let saved = try await store.save([paris])
    /// ```
    @discardableResult
    public func save(_ records: [Record]) async throws(RecordStoreError) -> [Record] {
        try await write(RecordChangeSet(saving: records))
    }

    /// Saves records in one transaction under a ``SavePolicy``: `.allKeys` and `.changedKeys`
    /// save whatever version is stored (an upsert), replacing it or merging the given fields into it.
    ///
    /// ```swift
    /// try store.save([paris], policy: .allKeys)   // inserts, or replaces the stored Paris
    /// ```
    @discardableResult
    public func save(_ records: [Record], policy: SavePolicy) throws(RecordStoreError) -> [Record] {
        try synchronously { try await self.save(records, policy: policy) }
    }

    /// Saves records in one transaction under a ``SavePolicy`` (async).
    ///
    /// `.changedKeys` reads the stored versions, merges the given fields into them and saves over
    /// the versions read; when another writer saves one of them in between, it reads and merges
    /// again, so a field written by someone else is never lost (after eight such collisions in a
    /// row the conflict is thrown).
    ///
    /// ```swift
    /// try await store.save([Record(recordType: "City", recordID: parisID, fields: ["population": 2_145_906])], policy: .changedKeys)
    /// ```
    @discardableResult
    public func save(_ records: [Record], policy: SavePolicy) async throws(RecordStoreError) -> [Record] {
        switch policy {
        case .ifServerRecordUnchanged:
            return try await save(records)
        case .allKeys:
            return try await write(RecordChangeSet(saving: records, overwriting: Set(records.map(\.recordID))))
        case .changedKeys:
            var attempt = 1
            while true {
                let stored = try await lookup(records.map(\.recordID).filter(\.canBeStored))
                do {
                    return try await save(records.map { $0.merged(into: stored[$0.recordID]) })
                } catch .conflict where attempt < 8 {
                    attempt += 1
                }
            }
        }
    }

    /// Saves records in one transaction, resolving uniqueness-constraint conflicts
    /// (``RecordTypeSchema/uniquenessConstraints``) by a ``MergePolicy``: returns, for each
    /// record given, the record it was saved as, which is the existing record it was merged into
    /// (or kept, under ``MergePolicy/rollback``) when it conflicted.
    ///
    /// ```swift
    /// // "ada" is stored with email ada@example.com
    /// let saved = try store.save([Record(recordType: "Employee", recordID: RecordID(recordName: "new"),
    ///                                    fields: ["email": "ada@example.com", "age": 37])], mergePolicy: .mergeByPropertyObjectTrump)
    /// saved[0].recordID.recordName   // "ada", now aged 37
    /// ```
    @discardableResult
    public func save(_ records: [Record], mergePolicy: MergePolicy) throws(RecordStoreError) -> [Record] {
        try synchronously { try await self.save(records, mergePolicy: mergePolicy) }
    }

    /// Saves records in one transaction, resolving uniqueness-constraint conflicts by a ``MergePolicy`` (async).
    ///
    /// ```swift
    /// let saved = try await store.save([newAda], mergePolicy: .rollback)   // the stored "ada", unchanged
    /// ```
    @discardableResult
    public func save(_ records: [Record], mergePolicy: MergePolicy) async throws(RecordStoreError) -> [Record] {
        var changes = RecordChangeSet(saving: records)
        changes.mergePolicy = mergePolicy
        return try await write(changes)
    }

    /// Deletes records in one transaction; identifiers without a stored record are ignored.
    ///
    /// ```swift
    /// try store.delete([RecordID(recordName: "2988507")])
    /// ```
    public func delete(_ ids: [RecordID]) throws(RecordStoreError) {
        try synchronously { try await self.delete(ids) }
    }

    /// Deletes records in one transaction (async); identifiers without a stored record are ignored.
    ///
    /// ```swift
    /// try await store.delete([RecordID(recordName: "2988507")])
    /// ```
    public func delete(_ ids: [RecordID]) async throws(RecordStoreError) {
        _ = try await write(RecordChangeSet(deleting: ids.filter(\.canBeStored)))
    }

    /// The stored record with this identifier, or nil.
    ///
    /// ```swift
    /// let paris = try store.record(for: RecordID(recordName: "2988507"))
    /// ```
    public func record(for id: RecordID) throws(RecordStoreError) -> Record? {
        try synchronously { try await self.record(for: id) }
    }

    /// The stored record with this identifier, or nil (async).
    ///
    /// ```swift
    /// let paris = try await store.record(for: RecordID(recordName: "2988507"))
    /// ```
    public func record(for id: RecordID) async throws(RecordStoreError) -> Record? {
        guard id.canBeStored else { return nil }
        return try await lookup([id])[id]
    }

    /// Refreshes the query planner's statistics; the importer calls it after a bulk import.
    /// Call it after saving many records yourself.
    ///
    /// ```swift
    /// try store.save(manyRecords)
    /// try store.optimize()
    /// ```
    public func optimize() throws(RecordStoreError) {
        try synchronously { try await self.optimize() }
    }

    /// Refreshes the query planner's statistics (async).
    ///
    /// ```swift
    /// try await store.optimize()
    /// ```
    public func optimize() async throws(RecordStoreError) {
        try await engine.optimize()
    }
}
