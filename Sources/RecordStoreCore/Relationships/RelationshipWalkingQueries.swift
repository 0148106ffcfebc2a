import PredicateLanguage

/// How ``Store`` runs queries (records, counts, aggregates, plans) on its engine, so that key
/// paths through relationships are answered the same way on every engine: through
/// ``RelationshipQuery`` (the engine runs the part that walks nothing, the related records are
/// read through its lookups and queries, and the evaluator decides the rest), unless the engine
/// plans the walk itself.
///
/// An engine that plans walks (the SQL engines) gets every query whose keys walk nothing, and
/// answers the walks it decides exactly in SQL; for the others it throws
/// ``RecordStoreError/relationshipWalkNotPlanned(_:recordType:)``, and the query is walked here.
/// For an engine that plans none, a query that may walk on its face (a dotted path, `SUBQUERY`,
/// a member) reads the catalog first; any other goes straight to the engine, and only if the
/// engine finds an unknown field that is an inverse to-many (`employees CONTAINS %@`) is it
/// answered by walking.
///
/// Known limit: the candidates and the related records are read in separate snapshots, so a
/// write committed between them may be seen in part.
///
/// ```swift
/// let page = try await store.queryEngine.records(specification)
/// ```
package struct RelationshipWalkingQueries: Sendable {
    package let base: any StorageEngine
    /// The store's metrics: each query's duration, and the rows it read and returned.
    package let metrics: StoreMetricsSlot

    /// The records a query selects, in order.
    package func records(_ query: QuerySpecification) async throws(RecordStoreError) -> [Record] {
        let tally = QueryTally()
        var query = query
        query.tally = tally
        let records = try await metrics.measure(.query) { () async throws(RecordStoreError) in
            try await answer(query, keys: query.sorts.map(\.key)) { (walking) throws(RecordStoreError) in
                try await walking.records(on: base)
            } direct: { () throws(RecordStoreError) in
                try await base.records(query)
            }
        }
        metrics.current.recordQuery(tally, returned: records.count)
        return records
    }

    /// How many records a query selects.
    package func count(_ query: QuerySpecification) async throws(RecordStoreError) -> Int {
        try await metrics.measure(.count) { () async throws(RecordStoreError) in
            try await answer(query, keys: []) { (walking) throws(RecordStoreError) in
                try await walking.matches(on: base).projected.count
            } direct: { () throws(RecordStoreError) in
                try await base.count(query)
            }
        }
    }

    /// One row per group of the matching records.
    package func aggregate(_ query: QuerySpecification, groupBy: [String], aggregates: [AggregateProperty]) async throws(RecordStoreError) -> [[String: Value]] {
        try await metrics.measure(.aggregate) { () async throws(RecordStoreError) in
            try await answer(query, keys: groupBy + aggregates.map(\.key)) { (walking) throws(RecordStoreError) in
                try await Aggregation(groupBy: groupBy, aggregates: aggregates).rows(walking.matches(on: base).projected)
            } direct: { () throws(RecordStoreError) in
                try await base.aggregate(query, groupBy: groupBy, aggregates: aggregates)
            }
        }
    }

    /// How a query runs.
    package func explain(_ query: QuerySpecification) async throws(RecordStoreError) -> QueryPlan {
        try await answer(query, keys: query.sorts.map(\.key)) { (walking) throws(RecordStoreError) in
            try await walking.explain(on: base)
        } direct: { () throws(RecordStoreError) in
            try await base.explain(query)
        }
    }

    /// Checks a query as ``records(_:)`` would accept it, without reading a record: the engine's
    /// own validation with key paths through relationships allowed (as an engine that plans
    /// walks validates, and as a walked query's candidates are validated), then every path and
    /// sort key through a relationship as ``RelationshipQuery`` reads it (an unknown field past a
    /// relationship, a path through a field that is not one). What running the query refuses
    /// for its schema this refuses, and what it answers this accepts: `employees.@count > 10`
    /// over an inverse to-many, `department.name == "Sales"` over a to-one.
    /// `entity.name` (``EntityKeyPath``) is checked as the query's own type, as a query on a type
    /// with subtypes resolves it for each.
    package func check(_ query: QuerySpecification) async throws(RecordStoreError) {
        let catalog = try await base.catalog()
        var query = query
        if EntityKeyPath.isNamed(in: query.predicate, schema: catalog.recordTypes[query.recordType]) {
            query.predicate = EntityKeyPath.resolved(query.predicate, recordType: query.recordType)
        }
        try QueryValidation.check(query, catalog: catalog, allowsRelationshipWalks: true)
        _ = try RelationshipQuery(query, catalog: catalog, keys: query.sorts.map(\.key))
    }

    /// Walks in Swift when the query must be (`walked`), otherwise asks the engine (`direct`),
    /// and walks after all when the engine refuses a walk it does not plan.
    private func answer<Answer>(
        _ query: QuerySpecification, keys: [String],
        walked: (RelationshipQuery) async throws(RecordStoreError) -> Answer,
        direct: () async throws(RecordStoreError) -> Answer
    ) async throws(RecordStoreError) -> Answer {
        if let walking = try await walkingQuery(query, keys: keys) { return try await walked(walking) }
        do {
            return try await direct()
        } catch {
            guard let walking = try await walkingQuery(query, keys: keys, after: error) else { throw error }
            return try await walked(walking)
        }
    }

    /// The query split for walking in Swift before the engine sees it: when the engine plans no
    /// walks and a key (a sort, a group) or the predicate may walk on its face. An engine that
    /// plans walks gets the query first, sorts and groups included, and refuses what it cannot plan.
    private func walkingQuery(_ query: QuerySpecification, keys: [String]) async throws(RecordStoreError) -> RelationshipQuery? {
        guard !base.plansRelationshipWalks else { return nil }
        let keysWalk = keys.contains { $0.contains(".") }
        guard keysWalk || RelationshipQuery.mayWalk(query.predicate) else { return nil }
        return try RelationshipQuery(query, catalog: await base.catalog(), keys: keys)
    }

    /// The query split for walking in Swift after the engine refused it: for a walk it does not
    /// plan, or, from an engine that plans none, for an unknown field that is a relationship
    /// (an inverse to-many named alone: `employees CONTAINS %@`).
    private func walkingQuery(_ query: QuerySpecification, keys: [String], after error: RecordStoreError) async throws(RecordStoreError) -> RelationshipQuery? {
        switch error {
        case .relationshipWalkNotPlanned(_, let recordType) where recordType == query.recordType:
            break
        case .unknownField(let name, let recordType, _) where recordType == query.recordType && !base.plansRelationshipWalks:
            guard try await base.catalog().recordTypes[recordType]?.relationship(named: name) != nil else { return nil }
        default:
            return nil
        }
        return try RelationshipQuery(query, catalog: await base.catalog(), keys: keys)
    }
}
