import PredicateLanguage

/// The engine a ``Store`` talks to: the store's engine, with queries that walk relationships
/// answered through ``RelationshipQuery`` (the engine runs the part that walks nothing, the
/// related records are read through its lookups and queries, and the evaluator decides the
/// rest). Every engine, an external one included, answers key paths through relationships
/// exactly this way, as the memory engine, the reference, does.
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
final class RelationshipWalkingEngine: StorageEngine {
    let base: any StorageEngine

    init(base: any StorageEngine) {
        self.base = base
    }

    var name: String { base.name }
    var secret: StoreSecret { base.secret }
    var answersSynchronously: Bool { base.answersSynchronously }
    var changeFeed: ChangeFeed { base.changeFeed }

    func modify(_ changes: RecordChangeSet, mode: SchemaMode) async throws(RecordStoreError) -> [Record] {
        try await base.modify(changes, mode: mode)
    }
    func records(for ids: [RecordID]) async throws(RecordStoreError) -> [RecordID: Record] { try await base.records(for: ids) }
    func createZone(_ zone: ZoneID) async throws(RecordStoreError) { try await base.createZone(zone) }
    func zones() async throws(RecordStoreError) -> [ZoneID] { try await base.zones() }
    func deleteZone(_ zone: ZoneID) async throws(RecordStoreError) { try await base.deleteZone(zone) }
    func catalog() async throws(RecordStoreError) -> SchemaCatalog { try await base.catalog() }
    func define(_ recordTypes: [RecordTypeSchema], templates: [FetchRequestTemplate], progress: StoreOpeningProgressHandler?) async throws(RecordStoreError) {
        try await base.define(recordTypes, templates: templates, progress: progress)
    }
    func optimize() async throws(RecordStoreError) { try await base.optimize() }
    var plansRelationshipWalks: Bool { base.plansRelationshipWalks }
    func beginBulkLoad(of recordType: String, incoming: Int) async throws(RecordStoreError) {
        try await base.beginBulkLoad(of: recordType, incoming: incoming)
    }
    func finishBulkLoad(progress: StoreOpeningProgressHandler?) async throws(RecordStoreError) {
        try await base.finishBulkLoad(progress: progress)
    }

    // MARK: Queries

    func records(_ query: QuerySpecification) async throws(RecordStoreError) -> [Record] {
        if let walking = try await walkingQuery(query, keys: query.sorts.map(\.key)) {
            return try await walking.records(on: base)
        }
        do {
            return try await base.records(query)
        } catch {
            guard let walking = try await walkingQuery(query, keys: query.sorts.map(\.key), after: error) else { throw error }
            return try await walking.records(on: base)
        }
    }

    func count(_ query: QuerySpecification) async throws(RecordStoreError) -> Int {
        if let walking = try await walkingQuery(query) {
            return try await walking.matches(on: base).projected.count
        }
        do {
            return try await base.count(query)
        } catch {
            guard let walking = try await walkingQuery(query, after: error) else { throw error }
            return try await walking.matches(on: base).projected.count
        }
    }

    func aggregate(_ query: QuerySpecification, groupBy: [String], aggregates: [AggregateProperty]) async throws(RecordStoreError) -> [[String: Value]] {
        let keys = groupBy + aggregates.map(\.key)
        let walking: RelationshipQuery
        if let found = try await walkingQuery(query, keys: keys) {
            walking = found
        } else {
            do {
                return try await base.aggregate(query, groupBy: groupBy, aggregates: aggregates)
            } catch {
                guard let found = try await walkingQuery(query, keys: keys, after: error) else { throw error }
                walking = found
            }
        }
        return try await Aggregation(groupBy: groupBy, aggregates: aggregates).rows(walking.matches(on: base).projected)
    }

    func explain(_ query: QuerySpecification) async throws(RecordStoreError) -> QueryPlan {
        if let walking = try await walkingQuery(query, keys: query.sorts.map(\.key)) {
            return try await walking.explain(on: base)
        }
        do {
            return try await base.explain(query)
        } catch {
            guard let walking = try await walkingQuery(query, keys: query.sorts.map(\.key), after: error) else { throw error }
            return try await walking.explain(on: base)
        }
    }

    /// The query split for walking in Swift before the engine sees it: when a key (a sort, a
    /// group) walks, or when the engine plans no walks and the predicate may walk on its face.
    private func walkingQuery(_ query: QuerySpecification, keys: [String] = []) async throws(RecordStoreError) -> RelationshipQuery? {
        let keysWalk = keys.contains { $0.contains(".") }
        guard keysWalk || (!base.plansRelationshipWalks && RelationshipQuery.mayWalk(query.predicate)) else { return nil }
        return try RelationshipQuery(query, catalog: await base.catalog(), keys: keys)
    }

    /// The query split for walking in Swift after the engine refused it: for a walk it does not
    /// plan, or, from an engine that plans none, for an unknown field that is a relationship
    /// (an inverse to-many named alone: `employees CONTAINS %@`).
    private func walkingQuery(_ query: QuerySpecification, keys: [String] = [], after error: RecordStoreError) async throws(RecordStoreError) -> RelationshipQuery? {
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
