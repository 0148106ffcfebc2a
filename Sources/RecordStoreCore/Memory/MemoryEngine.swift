import Foundation
import PredicateLanguage

/// The engine that keeps records in memory and runs queries with the evaluator: the reference
/// every other engine must agree with.
///
/// Its work is computation only, so its `async` methods run it directly, and ``Store``'s
/// synchronous methods may wait for it.
///
/// ```swift
/// let store = Store(engine: MemoryEngine())   // Store.inMemory() says the same
/// ```
package final class MemoryEngine: StorageEngine {
    /// Everything the engine holds; it is its own write transaction (``RecordWriteTransaction``),
    /// run under the engine's lock.
    package struct State {
        package var catalog = SchemaCatalog()
        package var zones: [ZoneID] = [.default]
        /// Records by zone, then record name.
        package var records: [ZoneID: [RecordID: Record]] = [.default: [:]]
        /// Bumped by every change to the contents or the schema; retires cached query results.
        package var generation: UInt64 = 0
        /// The sequence number of the last commit that changed records (live queries).
        package var commitSequence: Int64 = 0
        /// The change history (positions, tombstones) that changes calls read.
        package var history = ChangeHistoryBook()
    }

    private let state = LockedState(State())
    /// The engine's assets (``AssetStorage``, in `MemoryEngine+Assets.swift`).
    let assets = MemoryAssetStorage()
    /// The sorted matches of the queries being paged through (see ``SortedMatchCache``).
    private let pagingCache = LockedState(SortedMatchCache())
    package let name = "memory"
    /// Computation only: ``Store``'s synchronous methods may wait for it.
    package var answersSynchronously: Bool { true }
    package let secret: StoreSecret
    /// Only this engine writes its records: its feed has no other source.
    package let changeFeed: ChangeFeed
    /// The stores beside this one, by name (``openSibling(named:progress:)``): kept here, since
    /// a store in memory is found again only through its engine.
    let siblings = LockedState<[String: MemoryEngine]>([:])

    package init() {
        secret = StoreSecret.random()
        changeFeed = ChangeFeed(storeIdentity: secret.storeIdentifier, source: nil, ordering: .consecutive)
    }

    /// The store in memory called `name` beside this one: made on first use, then the same one.
    package func openSibling(named name: String, progress: StoreOpeningProgressHandler?) async throws(RecordStoreError) -> any StorageEngine {
        siblings.withLock { siblings in
            if let existing = siblings[name] { return existing }
            let made = MemoryEngine()
            siblings[name] = made
            return made
        }
    }

    package func modify(_ changes: RecordChangeSet, mode: SchemaMode) async throws(RecordStoreError) -> [Record] {
        let feed = changeFeed
        return try state.withLock { (state: inout State) throws(RecordStoreError) -> [Record] in
            // The save runs under the lock, on this thread: the state's steps never suspend.
            do {
                let outcome = try SynchronousCall.wait { try await SaveProcedure.run(changes, mode: mode, in: &state) }
                // Under the lock, so that the feed hears the commits in their order.
                feed.committed(outcome.changes)
                return outcome.saved
            } catch {
                throw RecordStoreError(evaluating: error)
            }
        }
    }

    package func records(for ids: [RecordID]) async throws(RecordStoreError) -> [RecordID: Record] {
        state.withLock { state in
            var found: [RecordID: Record] = [:]
            for id in ids {
                if let record = state.records[id.zoneID]?[id] { found[id] = record }
            }
            return found
        }
    }

    package func createZone(_ zone: ZoneID) async throws(RecordStoreError) {
        guard !zone.zoneName.isEmpty else { throw .invalidZoneName(zone.zoneName) }
        state.withLock { state in
            if state.records[zone] == nil {
                state.generation &+= 1
                state.records[zone] = [:]
                state.zones.append(zone)
                state.history.createZone(zone, at: state.history.advance())
            }
        }
    }

    package func zones() async throws(RecordStoreError) -> [ZoneID] {
        state.withLock { state in
            [ZoneID.default] + state.zones.filter { $0 != .default }.sorted { SortComparison.compareBytes($0.zoneName, $1.zoneName) == .orderedAscending }
        }
    }

    package func deleteZone(_ zone: ZoneID) async throws(RecordStoreError) {
        guard zone != .default else { throw .cannotDeleteDefaultZone }
        try state.withLock { (state: inout State) throws(RecordStoreError) in
            guard state.records[zone] != nil else { throw .zoneNotFound(zone) }
            state.generation &+= 1
            state.records[zone] = nil
            state.zones.removeAll { $0 == zone }
            state.history.deleteZone(zone, at: state.history.advance(), date: Date())
            state.commitSequence += 1
            changeFeed.committed(CommittedChanges(sequence: state.commitSequence, unlisted: [.init(zone: zone)]))
        }
    }

    package func catalog() async throws(RecordStoreError) -> SchemaCatalog {
        state.withLock { $0.catalog }
    }

    /// Defines the record types and templates on a copy of the catalog, which replaces the
    /// store's only when all of them succeeded.
    package func define(
        _ recordTypes: [RecordTypeSchema], templates: [FetchRequestTemplate], progress: StoreOpeningProgressHandler?
    ) async throws(RecordStoreError) {
        try state.withLock { (state: inout State) throws(RecordStoreError) in
            var catalog = state.catalog
            var storage = MemoryMigrationStorage(state: state)
            try SynchronousCall.wait { [catalog] () async throws(RecordStoreError) in
                try await SchemaMigrationProcedure.checkAddedConstraints(of: recordTypes, catalog: catalog, storage: &storage)
            }
            for schema in recordTypes { _ = try catalog.define(schema) }
            for template in templates { try catalog.define(template) }
            // Relationships may name types of the same batch: checked once all are in.
            try catalog.checkRelationships()
            state.catalog = catalog
            state.generation &+= 1
        }
    }

    /// Runs the migration on a copy of the state (``MemoryMigrationStorage``), which replaces
    /// the engine's only when every step succeeded.
    package func migrate(_ migration: SchemaMigration, progress: StoreOpeningProgressHandler?) async throws(RecordStoreError) {
        try state.withLock { (state: inout State) throws(RecordStoreError) in
            var storage = MemoryMigrationStorage(state: state)
            var catalog = state.catalog
            try SynchronousCall.wait { () async throws(RecordStoreError) in
                try await SchemaMigrationProcedure.run(migration, catalog: &catalog, storage: &storage)
            }
            state = storage.state
            state.catalog = catalog
            state.generation &+= 1
            // Records were renamed and filled in without being listed: every observer reads again.
            state.commitSequence += 1
            changeFeed.committed(CommittedChanges(sequence: state.commitSequence, unlisted: [.everything]))
        }
    }

    // MARK: History

    package func history(of zone: ZoneID, after place: HistoryPosition, limit: Int, recordTypes: Set<String>?) async throws(RecordStoreError) -> HistoryPage {
        try state.withLock { (state: inout State) throws(RecordStoreError) -> HistoryPage in
            guard let zoneRecords = state.records[zone] else { throw .zoneNotFound(zone) }
            return state.history.page(of: zone, after: place, limit: limit, recordTypes: recordTypes) { zoneRecords[$0] }
        }
    }

    package func zoneHistory(after place: HistoryPosition, limit: Int) async throws(RecordStoreError) -> ZoneHistoryPage {
        state.withLock { $0.history.zonePage(after: place, limit: limit) }
    }

    package func pruneHistory(deletedBefore date: Date) async throws(RecordStoreError) -> HistoryPruning {
        state.withLock { $0.history.prune(deletedBefore: date) }
    }

    /// The memory engine scans; it keeps no statistics.
    package func optimize() async throws(RecordStoreError) {}

    // MARK: Queries

    /// The records of the queries' types in the zone (one pass over the zone for all of them),
    /// each query's searchable fields, and the generation they belong to, taken under the lock
    /// after validating each query against the catalog. The queries are of one zone, each of
    /// its own type.
    private func snapshot(_ queries: [QuerySpecification]) throws(RecordStoreError) -> (records: [Record], searchable: [[String]], generation: UInt64) {
        try state.withLock { (state: inout State) throws(RecordStoreError) -> ([Record], [[String]], UInt64) in
            var searchable: [[String]] = []
            for query in queries { searchable.append(try QueryValidation.check(query, catalog: state.catalog).searchableFieldNames) }
            guard let zone = queries.first?.zone else { return ([], [], state.generation) }
            guard let zoneRecords = state.records[zone] else { throw .zoneNotFound(zone) }
            let types = queries.map(\.recordType)
            if types.count == 1 { return (zoneRecords.values.filter { $0.recordType == types[0] }, searchable, state.generation) }
            return (zoneRecords.values.filter { types.contains($0.recordType) }, searchable, state.generation)
        }
    }

    /// The queries that read a query's records: its branches when its type has subtypes or it
    /// names `entity` (``HierarchyQuery``), else the query itself.
    private func parts(_ query: QuerySpecification) throws(RecordStoreError) -> [QuerySpecification] {
        let catalog = state.withLock { $0.catalog }
        return try HierarchyQuery(query, catalog: catalog)?.branches ?? [query]
    }

    /// The matching records of the queries (a query or a hierarchy's branches, each with its
    /// own predicate), unsorted, and the generation they belong to.
    private func matches(_ parts: [QuerySpecification]) throws(RecordStoreError) -> (records: [Record], generation: UInt64) {
        let (candidates, searchable, generation) = try snapshot(parts)
        var matches: [Record] = []
        do {
            let types = parts.map(\.recordType)
            let compiled = try parts.map { query throws in
                try CompiledPredicate(query.predicate, options: query.costLimits.evaluationOptions(), layout: RecordObject.self)
            }
            for record in candidates {
                // Each record is tested by its own type's query (`entity.name` is its type).
                let index = types.count == 1 ? 0 : types.firstIndex(of: record.recordType) ?? 0
                if try compiled[index].evaluate(RecordObject(record: record, searchableFields: searchable[index])) { matches.append(record) }
            }
        } catch {
            throw RecordStoreError(evaluating: error)
        }
        // Every candidate is read and tested in Swift: the whole predicate is the memory engine's residual.
        parts.first?.tally?.add(rowsRead: candidates.count, residualTested: candidates.count, residualRejected: candidates.count - matches.count)
        return (matches, generation)
    }

    /// The matches after the keyset position or offset, sorted; only the first `offset + limit`
    /// are sorted fully. A query over a hierarchy reads every concrete type in one pass over
    /// the zone and sorts their matches together.
    ///
    /// Continuation pages (a keyset position or an offset) come from the paging cache, which sorts
    /// a query's matches once and serves every later page by slicing while nothing changes
    /// (not for predicates whose answer changes with time, such as `date < now()`).
    package func records(_ query: QuerySpecification) async throws(RecordStoreError) -> [Record] {
        let parts = try parts(query)
        let ordering = RecordOrdering(sorts: query.sorts)
        if query.after != nil || query.offset > 0, !query.predicate.isTimeDependent {
            return try sortedMatches(query, parts: parts, ordering: ordering)
                .page(after: query.after, ordering: ordering, skip: query.offset, count: query.limit)
        }
        return ordering.page(of: try matches(parts).records, after: query.after, offset: query.offset, limit: query.limit)
    }

    /// A query's matches, sorted, from the paging cache or computed and remembered.
    private func sortedMatches(_ query: QuerySpecification, parts: [QuerySpecification], ordering: RecordOrdering) throws(RecordStoreError) -> SortedMatchCache.Entry {
        let key = SortedMatchCache.Key(query)
        let generation = state.withLock { $0.generation }
        if let entry = pagingCache.withLock({ $0.entry(for: key, generation: generation) }) {
            // The catalog may have changed the query's validity since; the generation says it did not.
            return entry
        }
        let (matches, matchedGeneration) = try matches(parts)
        let entry = SortedMatchCache.Entry(key: key, generation: matchedGeneration, sortedRecords: matches.sorted(by: ordering.precedes))
        pagingCache.withLock { $0.remember(entry) }
        return entry
    }

    package func aggregate(_ query: QuerySpecification, groupBy: [String], aggregates: [AggregateProperty]) async throws(RecordStoreError) -> [[String: Value]] {
        try Aggregation(groupBy: groupBy, aggregates: aggregates).rows(matches(parts(query)).records)
    }

    package func count(_ query: QuerySpecification) async throws(RecordStoreError) -> Int {
        try matches(parts(query)).records.count
    }

    /// The scan ``records(_:)`` makes: every record of the query's types in the zone (each
    /// concrete type of a hierarchy, in one pass), all of which the evaluator tests.
    package func explain(_ query: QuerySpecification) async throws(RecordStoreError) -> QueryPlan {
        let parts = try parts(query)
        let candidates = try snapshot(parts).records.count
        let types = parts.map(\.recordType)
        let scan = types == [query.recordType]
            ? "scan \(query.recordType) in zone \(query.zone.zoneName)"
            : "scan every type of \(query.recordType)'s hierarchy (\(types.joined(separator: ", "))) in zone \(query.zone.zoneName), in one pass"
        return QueryPlan(
            engine: name, sql: "", arguments: [],
            residual: query.predicate == .truePredicate ? nil : query.predicate.predicateFormat,
            indexesUsed: [], queryPlanDetails: [scan], estimatedRows: [candidates])
    }
}

extension MemoryEngine.State: RecordWriteTransaction {
    package func readCatalog() -> SchemaCatalog { catalog }

    package func storedVersions(of ids: [RecordID]) -> [RecordID: StoredVersion] {
        var versions: [RecordID: StoredVersion] = [:]
        for id in ids {
            if let record = records[id.zoneID]?[id] {
                versions[id] = StoredVersion(
                    recordType: record.recordType, changeTag: record.recordChangeTag, creationDate: record.creationDate,
                    creatorUserRecordName: record.creatorUserRecordName)
            }
        }
        return versions
    }

    package func storedRecords(_ ids: [RecordID]) -> [RecordID: Record] {
        var found: [RecordID: Record] = [:]
        for id in ids {
            if let record = records[id.zoneID]?[id] { found[id] = record }
        }
        return found
    }

    package func records(matching lookup: ReferenceLookup) -> [Record] {
        lookup.filter((records[lookup.zone] ?? [:]).values)
    }

    package func records(matching lookup: UniquenessLookup) -> [Record] {
        lookup.filter((records[lookup.zone] ?? [:]).values)
    }

    package func existingZones(among zones: Set<ZoneID>) -> Set<ZoneID> {
        zones.filter { records[$0] != nil }
    }

    package mutating func applySchemaChanges(_ changes: [SchemaChange], catalog: SchemaCatalog) {
        self.catalog = catalog
    }

    package mutating func nextChangePosition() -> Int64 {
        history.advance()
    }

    package mutating func apply(_ plan: WritePlan, catalog: SchemaCatalog) {
        self.catalog = catalog
        generation &+= 1
        for write in plan.writes {
            records[write.record.recordID.zoneID, default: [:]][write.record.recordID] = write.record
        }
        for id in plan.deletions {
            records[id.zoneID]?[id] = nil
        }
    }

    package mutating func recordHistory(_ changes: CommittedChanges, at position: Int64, date: Date) {
        history.record(changes, at: position, date: date)
    }

    package mutating func logCommit(_ changes: CommittedChanges) -> Int64 {
        commitSequence += 1
        return commitSequence
    }
}
