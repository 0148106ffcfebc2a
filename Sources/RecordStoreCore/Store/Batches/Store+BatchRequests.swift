import PredicateLanguage

/// Batch requests: Core Data's `NSBatchDeleteRequest` and `NSBatchUpdateRequest`.
///
/// A batch request changes every record a fetch request matches in one write, without the
/// caller reading them: one query reads the matches, one transaction writes them all, in the
/// few statements a save of that many records takes. Unlike Core Data's, whose batch requests
/// write the SQLite file directly, a batch request here is an ordinary write of the store: it
/// keeps the change history (the tombstones of what it deletes, the positions of what it
/// updates), the deletion rules (cascades, denials, nullifications), the live queries'
/// notifications and the schema's validation. A refused request changes nothing.
///
/// The write expects every match unchanged since the query read it; when another writer
/// changed one in between, the request reads and tries again (three times at most, then throws
/// ``RecordStoreError/conflict(_:expected:found:)``). So a batch request acts as if it ran at
/// one instant, whatever else writes.
///
/// An update whose request has no sorts, offset or limit may run in the engine over the matching
/// rows, without the records being read (SQLite does, ``SetBasedUpdate``): one transaction finds
/// and updates them, so nothing can change in between, and the result is the one above.
///
/// A request honours the fetch request's predicate, zone, sorts, `fetchLimit` and `fetchOffset`;
/// its result type and the fields it fetches do not matter. Relationship walks in the predicate
/// (`department.name == "Sales"`) work as in a fetch.
extension Store {
    /// How many times a batch request reads its matches again after a conflicting write.
    static let batchAttempts = 3

    /// Deletes every record a fetch request matches, in one write (Core Data's
    /// `NSBatchDeleteRequest`).
    ///
    /// ```swift
    /// let result = try store.deleteRecords(matching: FetchRequest(entityName: "City", predicate: try FormatPredicate(format: "population < 1000")))
    /// print(result.count)
    /// ```
    @discardableResult
    public func deleteRecords(matching request: FetchRequest, author: String? = nil) throws(RecordStoreError) -> BatchResult {
        try synchronously { try await self.deleteRecords(matching: request, author: author) }
    }

    /// Deletes every record a fetch request matches, in one write (async).
    ///
    /// ```swift
    /// let result = try await store.deleteRecords(matching: FetchRequest(entityName: "City", predicate: try FormatPredicate(format: "population < 1000")))
    /// ```
    @discardableResult
    public func deleteRecords(matching request: FetchRequest, author: String? = nil) async throws(RecordStoreError) -> BatchResult {
        try await runBatch(request, .delete, author: author)
    }

    /// Deletes every record of a type in a zone that matches a predicate, in one write.
    ///
    /// ```swift
    /// try store.deleteRecords(ofType: "City", matching: FormatPredicate(format: "population < 1000")).count   // 1203
    /// ```
    @discardableResult
    public func deleteRecords(ofType recordType: String, matching predicate: FormatPredicate, zone: ZoneID = .default) throws(RecordStoreError) -> BatchResult {
        try deleteRecords(matching: Self.batchRequest(recordType, predicate, zone))
    }

    /// Deletes every record of a type in a zone that matches a predicate, in one write (async).
    ///
    /// ```swift
    /// try await store.deleteRecords(ofType: "City", matching: FormatPredicate(format: "population < 1000"))
    /// ```
    @discardableResult
    public func deleteRecords(ofType recordType: String, matching predicate: FormatPredicate, zone: ZoneID = .default) async throws(RecordStoreError) -> BatchResult {
        try await deleteRecords(matching: Self.batchRequest(recordType, predicate, zone))
    }

    /// Sets fields on every record a fetch request matches, in one write (Core Data's
    /// `NSBatchUpdateRequest` and its `propertiesToUpdate`). A `.null` value removes the field.
    ///
    /// ```swift
    /// let result = try store.updateRecords(
    ///     matching: FetchRequest(entityName: "City", predicate: try FormatPredicate(format: "countrycode == 'FR'")),
    ///     set: ["continent": "Europe"])
    /// print(result.count)
    /// ```
    @discardableResult
    public func updateRecords(matching request: FetchRequest, set values: [String: Value], author: String? = nil) throws(RecordStoreError) -> BatchResult {
        try synchronously { try await self.updateRecords(matching: request, set: values, author: author) }
    }

    /// Sets fields on every record a fetch request matches, in one write (async).
    ///
    /// ```swift
    /// try await store.updateRecords(matching: FetchRequest(entityName: "City"), set: ["visited": false])
    /// ```
    @discardableResult
    public func updateRecords(matching request: FetchRequest, set values: [String: Value], author: String? = nil) async throws(RecordStoreError) -> BatchResult {
        try await runBatch(request, .update(values), author: author)
    }

    /// Sets fields on every record of a type in a zone that matches a predicate, in one write.
    ///
    /// ```swift
    /// try store.updateRecords(ofType: "City", matching: FormatPredicate(format: "countrycode == 'FR'"), set: ["continent": "Europe"]).count   // 470
    /// ```
    @discardableResult
    public func updateRecords(
        ofType recordType: String, matching predicate: FormatPredicate, set values: [String: Value], zone: ZoneID = .default
    ) throws(RecordStoreError) -> BatchResult {
        try updateRecords(matching: Self.batchRequest(recordType, predicate, zone), set: values)
    }

    /// Sets fields on every record of a type in a zone that matches a predicate, in one write (async).
    ///
    /// ```swift
    /// try await store.updateRecords(ofType: "City", matching: FormatPredicate(format: "countrycode == 'FR'"), set: ["continent": "Europe"])
    /// ```
    @discardableResult
    public func updateRecords(
        ofType recordType: String, matching predicate: FormatPredicate, set values: [String: Value], zone: ZoneID = .default
    ) async throws(RecordStoreError) -> BatchResult {
        try await updateRecords(matching: Self.batchRequest(recordType, predicate, zone), set: values)
    }

    /// The fetch request of a batch request given by its parts.
    private static func batchRequest(_ recordType: String, _ predicate: FormatPredicate, _ zone: ZoneID) -> FetchRequest {
        var request = FetchRequest(entityName: recordType, predicate: predicate)
        request.zoneID = zone
        return request
    }

    /// The one implementation of both batch requests: read the matches, write the change to all
    /// of them in one transaction that expects them unchanged, and read again after a conflict.
    package func runBatch(_ request: FetchRequest, _ change: BatchChange, author: String?) async throws(RecordStoreError) -> BatchResult {
        var request = request
        request.resultType = .records
        request.propertiesToFetch = nil
        if case .update(let values) = change {
            try Self.checkBatchUpdate(values, recordType: request.entityName)
            if let updated = try await updateInSQL(request, set: values, author: author) { return updated }
        }
        var attempt = 1
        while true {
            let matches = try await fetch(request).records
            guard !matches.isEmpty else { return BatchResult(recordIDs: []) }
            let matched = matches.map(\.recordID)
            do {
                _ = try await write(change.changeSet(for: consume matches, author: author))
                return BatchResult(recordIDs: matched)
            } catch {
                guard case .conflict = error, attempt < Self.batchAttempts else { throw error }
                attempt += 1
            }
        }
    }

    /// A batch update the engine runs over the matching rows without reading them
    /// (``SetBasedUpdate``), when the request has no sorts, offset or limit and the engine can;
    /// nil otherwise, with nothing changed.
    private func updateInSQL(_ request: FetchRequest, set values: [String: Value], author: String?) async throws(RecordStoreError) -> BatchResult? {
        guard request.sortDescriptors.isEmpty, request.fetchOffset == 0, request.fetchLimit == 0 else { return nil }
        var query = checkedSpecification(request.entityName, request.predicate ?? .truePredicate, [], request.zoneID, nil)
        query.includesSubtypes = request.includesSubentities
        let update = SetBasedUpdate.Request(query: query, values: values, author: author, schemaLimits: schemaLimits)
        let metrics = metricsSlot.current
        let names = try await metricsSlot.measure(.save) { () async throws(RecordStoreError) in try await engine.updateRecords(update) }
        guard let names else { return nil }
        metrics.recordWrite(saved: names.count, deleted: 0)
        return BatchResult(recordIDs: names.map { RecordID(recordName: $0, zoneID: request.zoneID) })
    }

    /// Refuses an update that sets nothing (the fields it names are checked as any save's are).
    private static func checkBatchUpdate(_ values: [String: Value], recordType: String) throws(RecordStoreError) {
        guard !values.isEmpty else { throw .invalidBatchUpdate(recordType: recordType, reason: "it sets no field") }
    }
}
