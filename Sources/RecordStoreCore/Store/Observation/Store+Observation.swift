extension Store {
    /// Observes a query: yields its results now, then a change set after every commit that
    /// changes them (``RecordObservation``), in the shape `NSFetchedResultsController` reports.
    ///
    /// Commits are heard from this handle at once, from other handles and processes on the same
    /// SQLite file within 50 ms (the change log is looked at that often while somebody
    /// observes), and from every client of a PostgreSQL store as they commit (`LISTEN`). The
    /// results follow from the changed records alone (O(k log n) for k changed records among n
    /// results); the query runs again only when that cannot decide (a full window that lost
    /// records, an offset, a deleted zone, a lost track). A store that cannot hear commits (a
    /// PostgreSQL store opened read-only on a hot standby) refuses: the first element throws
    /// ``RecordStoreError/readOnlyStore(server:reason:)``.
    ///
    /// - Parameters:
    ///   - query: The record type, predicate and sorts.
    ///   - zone: The zone to observe.
    ///   - limit: At most this many results (the first in the query's order); nil for all.
    ///   - sectionKey: A field whose equal values group the results into sections
    ///     (`sectionNameKeyPath`); it must be the key of the query's first sort.
    ///
    /// ```swift
    /// let query = try RecordQuery(recordType: "City", predicate: FormatPredicate(format: "countryCode == 'FR'"),
    ///                             sorts: [Sort("population", ascending: false)])
    /// for try await change in store.observe(query, limit: 5) {
    ///     print(change.records.map(\.recordID.recordName), change.difference)
    /// }
    /// ```
    public func observe(_ query: RecordQuery, inZone zone: ZoneID = .default, limit: Int? = nil, sectionKey: String? = nil) -> RecordObservation {
        var problem: RecordStoreError?
        if let limit, limit < 0 { problem = .invalidQuery("an observation's limit must not be negative (\(limit))") }
        return observation(checkedSpecification(query.recordType, query.predicate, query.sorts, zone, limit), sectionKey: sectionKey, problem: problem)
    }

    /// Observes a fetch request's records (its entity, predicate, sort descriptors, zone, fetch
    /// limit and offset): as ``observe(_:inZone:limit:sectionKey:)``. Only requests for records
    /// (``FetchRequest/ResultType/records``) can be observed.
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "City", predicate: FormatPredicate(format: "population > 1000000"))
    /// request.sortDescriptors = [Sort("countryCode"), Sort("name")]
    /// for try await change in store.observe(request, sectionKey: "countryCode") {
    ///     print(change.sections.map(\.name))
    /// }
    /// ```
    public func observe(_ request: FetchRequest, sectionKey: String? = nil) -> RecordObservation {
        var problem: RecordStoreError?
        if request.resultType != .records {
            problem = .invalidQuery("only a fetch request for records can be observed, not one for \(request.resultType.rawValue)")
        }
        if request.propertiesToGroupBy != nil { problem = .invalidQuery("a fetch request that groups its results cannot be observed") }
        var specification = checkedSpecification(
            request.entityName, request.predicate ?? .truePredicate, request.sortDescriptors, request.zoneID,
            request.fetchLimit > 0 ? request.fetchLimit : nil)
        specification.offset = max(0, request.fetchOffset)
        specification.includesSubtypes = request.includesSubentities
        return observation(specification, sectionKey: sectionKey, problem: problem)
    }

    private func observation(_ specification: QuerySpecification, sectionKey: String?, problem: RecordStoreError?) -> RecordObservation {
        var problem = problem ?? engine.changeFeed.refusal
        if problem == nil {
            do {
                try QueryValidation.checkShape(recordType: specification.recordType, predicate: specification.predicate)
            } catch {
                problem = error
            }
        }
        if problem == nil, let sectionKey, specification.sorts.first?.key != sectionKey || specification.sorts.first?.distanceOrigin != nil {
            problem = .invalidQuery(
                "the section key \"\(sectionKey)\" must be the key of the first sort, so that each section's records are together")
        }
        return RecordObservation(store: self, specification: specification, sectionKey: sectionKey, problem: problem)
    }
}
