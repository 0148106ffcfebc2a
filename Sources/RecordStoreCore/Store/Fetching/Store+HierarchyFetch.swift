import PredicateLanguage

extension Store {
    /// A whole fetch (no `fetchLimit`) of a record type with subtypes: each concrete type read
    /// to its end in its own keyset pages, then the types merged in the request's order
    /// (``HierarchyQuery/merge(_:)``) and the offset applied to the merge. Nil for any other
    /// fetch, which ``fetch(_:)`` pages as one query.
    ///
    /// Why apart: paged as one query, every page of the hierarchy asks each concrete type for a
    /// page and keeps one page of the union, so a fetch of everything reads each record about
    /// as many times as there are types; read type by type, each record is read once. A fetch
    /// with a limit keeps the one-query pages (each type gives at most `offset + limit`), and
    /// ``fetch(_:)`` asks only once a first page showed that more remain (so a fetch of one
    /// page costs no catalog read).
    ///
    /// ```swift
    /// // Person is abstract, with Employee, Manager and Contractor below it.
    /// let everyone = try await store.hierarchyFetch(FetchRequest(entityName: "Person"))
    /// ```
    package func hierarchyFetch(_ request: FetchRequest) async throws(RecordStoreError) -> FetchResult? {
        guard request.fetchLimit == 0, request.includesSubentities, request.resultType != .count else { return nil }
        // A sort through a relationship is walked by the store over the whole hierarchy.
        guard !request.sortDescriptors.contains(where: { $0.key.contains(".") }) else { return nil }
        let catalog = try await engine.catalog()
        let types = catalog.concreteTypes(of: request.entityName, includingSubtypes: true)
        guard types.count > 1 else { return nil }
        let distinct = request.resultType == .dictionaries && request.returnsDistinctResults
        var whole = checkedSpecification(request.entityName, request.predicate ?? .truePredicate, request.sortDescriptors, request.zoneID, nil)
        // Distinct dictionaries skip the offset among the distinct rows (``PagedFetch``).
        whole.offset = distinct ? 0 : request.fetchOffset
        guard let hierarchy = try HierarchyQuery(whole, catalog: catalog) else { return nil }
        var pages: [[Record]] = []
        for type in types {
            var branch = request
            branch.entityName = type
            branch.includesSubentities = false
            branch.fetchOffset = 0
            branch.resultType = .records
            branch.propertiesToFetch = nil
            branch.returnsDistinctResults = false
            guard case .records(let records) = try await fetch(branch) else { return nil }
            pages.append(records)
        }
        let merged = hierarchy.merge(pages)
        var collected = request
        collected.fetchOffset = distinct ? request.fetchOffset : 0
        var paged = PagedFetch(collected, pageSize: max(1, merged.count), mode: mode)
        paged.receive(merged)
        return paged.result
    }
}
