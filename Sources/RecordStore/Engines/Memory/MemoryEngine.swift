import Foundation
import PredicateLanguage

/// The engine that keeps records in memory and runs queries with the evaluator:
/// the reference every other engine must agree with.
final class MemoryEngine: StorageEngine {
    /// Everything the engine holds.
    private struct State {
        var catalog = SchemaCatalog()
        var zones: [ZoneID] = [.default]
        /// Records by zone, then record name.
        var records: [ZoneID: [String: Record]] = [.default: [:]]
        /// Bumped by every change to the contents or the schema; retires cached query results.
        var generation: UInt64 = 0
    }

    private let state = LockedState(State())
    /// The sorted matches of the queries being paged through (see ``SortedMatchCache``).
    private let pagingCache = LockedState(SortedMatchCache())
    let name = "memory"

    let cursorSecret = CursorSecret.random()

    func save(_ records: [Record], mode: SchemaMode) throws(RecordStoreError) -> [Record] {
        try modify(saving: records, deleting: [], expectedChangeTags: [:], mode: mode)
    }

    func modify(
        saving records: [Record], deleting ids: [RecordID], expectedChangeTags: [RecordID: String], mode: SchemaMode
    ) throws(RecordStoreError) -> [Record] {
        try SaveRules.checkDuplicates(records)
        return try state.withLock { (state: inout State) throws(RecordStoreError) -> [Record] in
            var admitted = records
            var catalog = state.catalog
            _ = try catalog.admit(&admitted, mode: mode)
            let now = Date()
            var saved: [Record] = []
            saved.reserveCapacity(admitted.count)
            for record in admitted {
                guard let zoneRecords = state.records[record.recordID.zoneID] else {
                    throw .zoneNotFound(record.recordID.zoneID)
                }
                let stored = zoneRecords[record.recordID.recordName].map {
                    StoredVersion(recordType: $0.recordType, changeTag: $0.recordChangeTag, creationDate: $0.creationDate)
                }
                try SaveRules.checkConflict(record, stored: stored)
                saved.append(SaveRules.stamped(record, stored: stored, now: now))
            }
            for id in ids {
                let stored = state.records[id.zoneID]?[id.recordName]
                try SaveRules.checkDeletion(id, expected: expectedChangeTags[id], stored: stored?.recordChangeTag, exists: stored != nil)
            }
            state.catalog = catalog
            state.generation &+= 1
            for record in saved {
                state.records[record.recordID.zoneID, default: [:]][record.recordID.recordName] = record
            }
            for id in ids {
                state.records[id.zoneID]?[id.recordName] = nil
            }
            return saved
        }
    }

    /// The memory engine scans; it keeps no statistics.
    func optimize() throws(RecordStoreError) {}

    func records(for ids: [RecordID]) throws(RecordStoreError) -> [RecordID: Record] {
        state.withLock { state in
            var found: [RecordID: Record] = [:]
            for id in ids {
                if let record = state.records[id.zoneID]?[id.recordName] { found[id] = record }
            }
            return found
        }
    }

    func delete(_ ids: [RecordID]) throws(RecordStoreError) {
        state.withLock { state in
            state.generation &+= 1
            for id in ids {
                state.records[id.zoneID]?[id.recordName] = nil
            }
        }
    }

    func record(for id: RecordID) throws(RecordStoreError) -> Record? {
        state.withLock { $0.records[id.zoneID]?[id.recordName] }
    }

    func createZone(_ zone: ZoneID) throws(RecordStoreError) {
        guard !zone.zoneName.isEmpty else { throw .invalidZoneName(zone.zoneName) }
        state.withLock { state in
            if state.records[zone] == nil {
                state.generation &+= 1
                state.records[zone] = [:]
                state.zones.append(zone)
            }
        }
    }

    func zones() throws(RecordStoreError) -> [ZoneID] {
        state.withLock { $0.zones }
    }

    func deleteZone(_ zone: ZoneID) throws(RecordStoreError) {
        guard zone != .default else { throw .cannotDeleteDefaultZone }
        try state.withLock { (state: inout State) throws(RecordStoreError) in
            guard state.records[zone] != nil else { throw .zoneNotFound(zone) }
            state.generation &+= 1
            state.records[zone] = nil
            state.zones.removeAll { $0 == zone }
        }
    }

    func catalog() throws(RecordStoreError) -> SchemaCatalog {
        state.withLock { $0.catalog }
    }

    func define(_ schema: RecordTypeSchema) throws(RecordStoreError) {
        try state.withLock { (state: inout State) throws(RecordStoreError) in
            _ = try state.catalog.define(schema)
            state.generation &+= 1
        }
    }

    /// The records of the type in the zone, the searchable fields, and the generation they
    /// belong to, taken under the lock.
    private func snapshot(_ specification: QuerySpecification) throws(RecordStoreError) -> (records: [Record], searchable: [String], generation: UInt64) {
        try state.withLock { (state: inout State) throws(RecordStoreError) -> ([Record], [String], UInt64) in
            guard let zoneRecords = state.records[specification.zone] else { throw .zoneNotFound(specification.zone) }
            let searchable = state.catalog.recordTypes[specification.recordType]?.searchableFieldNames ?? []
            return (zoneRecords.values.filter { $0.recordType == specification.recordType }, searchable, state.generation)
        }
    }

    /// The matching records, unsorted.
    private func matching(_ specification: QuerySpecification) throws(RecordStoreError) -> [Record] {
        try matchingSnapshot(specification).records
    }

    /// The matching records, unsorted, and the generation they belong to.
    private func matchingSnapshot(_ specification: QuerySpecification) throws(RecordStoreError) -> (records: [Record], generation: UInt64) {
        let (candidates, searchable, generation) = try snapshot(specification)
        let compiled: CompiledPredicate
        do {
            compiled = try CompiledPredicate(specification.predicate)
        } catch {
            throw Self.predicateError(error)
        }
        var matches: [Record] = []
        for record in candidates {
            do {
                if try compiled.evaluate(RecordObject(record: record, searchableFields: searchable)) {
                    matches.append(record)
                }
            } catch {
                throw Self.predicateError(error)
            }
        }
        return (matches, generation)
    }

    /// The matches after the keyset position, sorted; only the first `offset + limit` are sorted fully.
    ///
    /// Continuation pages (a keyset position or an offset) come from the paging cache, which sorts
    /// a query's matches once and serves every later page by slicing while nothing changes
    /// (not for predicates whose answer changes with time, such as `date < now()`).
    func records(_ specification: QuerySpecification) throws(RecordStoreError) -> [Record] {
        let ordering = RecordOrdering(sorts: specification.sorts)
        if specification.after != nil || specification.offset > 0, !specification.predicate.isTimeDependent {
            return try sortedMatches(specification, ordering: ordering)
                .page(after: specification.after, ordering: ordering, skip: specification.offset, count: specification.limit)
        }
        var matches = try matching(specification)
        if let position = specification.after {
            matches.removeAll { !ordering.follows($0, position) }
        }
        let skip = max(0, specification.offset)
        if let limit = specification.limit {
            let (wanted, overflow) = skip.addingReportingOverflow(max(0, limit))
            matches = overflow ? matches.sorted(by: ordering.precedes) : ordering.first(wanted, of: matches)
        } else {
            matches.sort(by: ordering.precedes)
        }
        if skip > 0 { matches.removeFirst(min(skip, matches.count)) }
        if let limit = specification.limit, matches.count > limit {
            matches.removeSubrange(max(0, limit)...)
        }
        return matches
    }

    /// A query's matches, sorted, from the paging cache or computed and remembered.
    private func sortedMatches(_ specification: QuerySpecification, ordering: RecordOrdering) throws(RecordStoreError) -> SortedMatchCache.Entry {
        let key = SortedMatchCache.Key(specification)
        let generation = state.withLock { $0.generation }
        if let entry = pagingCache.withLock({ $0.entry(for: key, generation: generation) }) { return entry }
        let (matches, matchedGeneration) = try matchingSnapshot(specification)
        let entry = SortedMatchCache.Entry(key: key, generation: matchedGeneration, sortedRecords: matches.sorted(by: ordering.precedes))
        pagingCache.withLock { $0.remember(entry) }
        return entry
    }

    func aggregate(_ specification: QuerySpecification, groupBy: [String], aggregates: [AggregateProperty]) throws(RecordStoreError) -> [[String: Value]] {
        try Aggregation(groupBy: groupBy, aggregates: aggregates).rows(matching(specification))
    }

    func count(_ specification: QuerySpecification) throws(RecordStoreError) -> Int {
        try matching(specification).count
    }

    func explain(_ specification: QuerySpecification) throws(RecordStoreError) -> QueryPlan {
        QueryPlan(
            engine: name, sql: "", arguments: [],
            residual: specification.predicate == .truePredicate ? nil : specification.predicate.predicateFormat,
            indexesUsed: [], queryPlanDetails: ["scan \(specification.recordType) in zone \(specification.zone.zoneName)"])
    }

    /// A thrown error as a store error.
    static func predicateError(_ error: any Error) -> RecordStoreError {
        if let error = error as? FormatPredicateError { return .predicate(error) }
        if let error = error as? RecordStoreError { return error }
        return .predicate(.evaluation(String(describing: error)))
    }
}
