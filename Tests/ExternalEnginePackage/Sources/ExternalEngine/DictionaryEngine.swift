import Foundation
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL
import Synchronization

/// A storage engine in a package of its own: it sees only what Query's `RecordStoreEngineKit`
/// product publishes under `@_spi(StorageEngine)`. It keeps every record in one dictionary and
/// answers queries with the predicate language's evaluator, the way the article "Writing a
/// storage engine" describes for an engine that is not SQL; its plans (`explain`) are what the
/// published SQL planner (`RecordStoreSQL`) makes of a query in a portable dialect
/// (``PlanningDialect``).
///
/// ```swift
/// let store = Store(engine: DictionaryEngine())
/// ```
final class DictionaryEngine: StorageEngine {
    /// Everything the engine holds; it is also the save's write transaction.
    struct Contents: RecordWriteTransaction {
        var catalog = SchemaCatalog()
        var zones: Set<ZoneID> = [.default]
        var records: [RecordID: Record] = [:]
        var lastCommit: Int64 = 0
        /// The change history, kept the way the package's memory engine keeps it.
        var history = ChangeHistoryBook()

        func readCatalog() -> SchemaCatalog { catalog }

        func storedVersions(of ids: [RecordID]) -> [RecordID: StoredVersion] {
            var versions: [RecordID: StoredVersion] = [:]
            for id in ids {
                guard let record = records[id] else { continue }
                versions[id] = StoredVersion(
                    recordType: record.recordType, changeTag: record.recordChangeTag, creationDate: record.creationDate,
                    creatorUserRecordName: record.creatorUserRecordName)
            }
            return versions
        }

        func storedRecords(_ ids: [RecordID]) -> [RecordID: Record] {
            ids.reduce(into: [RecordID: Record]()) { found, id in found[id] = records[id] }
        }

        func records(matching lookup: ReferenceLookup) -> [Record] { lookup.filter(records.values) }

        func records(matching lookup: UniquenessLookup) -> [Record] { lookup.filter(records.values) }

        func existingZones(among zones: Set<ZoneID>) -> Set<ZoneID> { zones.intersection(self.zones) }

        mutating func applySchemaChanges(_ changes: [SchemaChange], catalog: SchemaCatalog) { self.catalog = catalog }

        mutating func nextChangePosition() -> Int64 { history.advance() }

        mutating func recordHistory(_ changes: CommittedChanges, at position: Int64, date: Date) {
            history.record(changes, at: position, date: date)
        }

        mutating func apply(_ plan: WritePlan, catalog: SchemaCatalog) {
            self.catalog = catalog
            for write in plan.writes { records[write.record.recordID] = write.record }
            for id in plan.deletions { records[id] = nil }
        }

        mutating func logCommit(_ changes: CommittedChanges) -> Int64 {
            lastCommit += 1
            return lastCommit
        }
    }

    private let contents = Mutex(Contents())
    /// The engine's name in plans.
    let name = "dictionary"
    /// The store's identity and cursor-signing key.
    let secret = StoreSecret.random()
    /// The commits of this engine, for live queries.
    let changeFeed: ChangeFeed
    /// Its work is local: the synchronous forms may wait for it.
    var answersSynchronously: Bool { true }

    /// A new, empty engine.
    init() {
        changeFeed = ChangeFeed(storeIdentity: secret.storeIdentifier, source: nil, ordering: .consecutive)
    }

    func modify(_ changes: RecordChangeSet, mode: SchemaMode) async throws(RecordStoreError) -> [Record] {
        let feed = changeFeed
        return try contents.withLock { (contents: inout Contents) throws(RecordStoreError) -> [Record] in
            do {
                // The contents' steps never suspend: the save runs here, under the lock.
                let outcome = try SynchronousCall.wait { try await SaveProcedure.run(changes, mode: mode, in: &contents) }
                feed.committed(outcome.changes)
                return outcome.saved
            } catch {
                throw RecordStoreError(evaluating: error)
            }
        }
    }

    func records(for ids: [RecordID]) async throws(RecordStoreError) -> [RecordID: Record] {
        contents.withLock { contents in
            ids.reduce(into: [RecordID: Record]()) { found, id in found[id] = contents.records[id] }
        }
    }

    func createZone(_ zone: ZoneID) async throws(RecordStoreError) {
        guard !zone.zoneName.isEmpty else { throw .invalidZoneName(zone.zoneName) }
        contents.withLock { contents in
            if contents.zones.insert(zone).inserted { contents.history.createZone(zone, at: contents.history.advance()) }
        }
    }

    func zones() async throws(RecordStoreError) -> [ZoneID] {
        let others = contents.withLock { $0.zones.subtracting([.default]) }
        return [.default] + others.sorted { $0.zoneName.utf8.lexicographicallyPrecedes($1.zoneName.utf8) }
    }

    func deleteZone(_ zone: ZoneID) async throws(RecordStoreError) {
        guard zone != .default else { throw .cannotDeleteDefaultZone }
        try contents.withLock { (contents: inout Contents) throws(RecordStoreError) in
            guard contents.zones.remove(zone) != nil else { throw .zoneNotFound(zone) }
            contents.records = contents.records.filter { $0.key.zoneID != zone }
            contents.history.deleteZone(zone, at: contents.history.advance(), date: Date())
            contents.lastCommit += 1
            changeFeed.committed(CommittedChanges(sequence: contents.lastCommit, unlisted: [.init(zone: zone)]))
        }
    }

    func history(of zone: ZoneID, after place: HistoryPosition, limit: Int, recordTypes: Set<String>?) async throws(RecordStoreError) -> HistoryPage {
        try contents.withLock { (contents: inout Contents) throws(RecordStoreError) -> HistoryPage in
            guard contents.zones.contains(zone) else { throw .zoneNotFound(zone) }
            return contents.history.page(of: zone, after: place, limit: limit, recordTypes: recordTypes) { contents.records[$0] }
        }
    }

    func zoneHistory(after place: HistoryPosition, limit: Int) async throws(RecordStoreError) -> ZoneHistoryPage {
        contents.withLock { $0.history.zonePage(after: place, limit: limit) }
    }

    func pruneHistory(deletedBefore date: Date) async throws(RecordStoreError) -> HistoryPruning {
        contents.withLock { $0.history.prune(deletedBefore: date) }
    }

    func catalog() async throws(RecordStoreError) -> SchemaCatalog {
        contents.withLock { $0.catalog }
    }

    /// All or nothing: the record types and templates are defined on a copy of the catalog,
    /// which replaces the stored one only when every one of them succeeded.
    func define(_ recordTypes: [RecordTypeSchema], templates: [FetchRequestTemplate], progress: StoreOpeningProgressHandler?) async throws(RecordStoreError) {
        try contents.withLock { (contents: inout Contents) throws(RecordStoreError) in
            var catalog = contents.catalog
            for schema in recordTypes { _ = try catalog.define(schema) }
            for template in templates { try catalog.define(template) }
            contents.catalog = catalog
        }
    }

    func records(_ query: QuerySpecification) async throws(RecordStoreError) -> [Record] {
        RecordOrdering(sorts: query.sorts).page(of: try matches(query), after: query.after, offset: query.offset, limit: query.limit)
    }

    func count(_ query: QuerySpecification) async throws(RecordStoreError) -> Int {
        try matches(query).count
    }

    func aggregate(_ query: QuerySpecification, groupBy: [String], aggregates: [AggregateProperty]) async throws(RecordStoreError) -> [[String: Value]] {
        try Aggregation(groupBy: groupBy, aggregates: aggregates).rows(matches(query))
    }

    /// The plan the published SQL planner makes of the query in ``PlanningDialect`` (what a SQL
    /// database would run, and the residual it would leave to the evaluator); the engine itself
    /// scans every record.
    func explain(_ query: QuerySpecification) async throws(RecordStoreError) -> QueryPlan {
        let schema = try contents.withLock { (contents: inout Contents) throws(RecordStoreError) in
            try QueryValidation.check(query, catalog: contents.catalog)
        }
        let dialect = PlanningDialect()
        let plan = try SQLPlanner(dialect: dialect, schema: schema, recordType: query.recordType).plan(query)
        var sql = "SELECT * FROM \(dialect.quote(TableLayout.recordTable(query.recordType))) t WHERE \(plan.whereClause)"
        if let orderBy = plan.orderBy { sql += " ORDER BY \(orderBy)" }
        return QueryPlan(engine: name, sql: sql, arguments: (plan.whereArguments + plan.orderArguments).map(\.description),
                         residual: plan.residual?.predicateFormat, indexesUsed: [], queryPlanDetails: ["scan every record"], estimatedRows: [])
    }

    func optimize() async throws(RecordStoreError) {}

    /// The records of the query's type and zone that its predicate selects, checked against the
    /// catalog first, in no order.
    private func matches(_ query: QuerySpecification) throws(RecordStoreError) -> [Record] {
        let (schema, candidates) = try contents.withLock { (contents: inout Contents) throws(RecordStoreError) in
            let schema = try QueryValidation.check(query, catalog: contents.catalog)
            guard contents.zones.contains(query.zone) else { throw .zoneNotFound(query.zone) }
            return (schema, contents.records.values.filter { $0.recordID.zoneID == query.zone && $0.recordType == query.recordType })
        }
        do {
            let predicate = try CompiledPredicate(query.predicate, layout: RecordObject.self)
            let searchable = schema.searchableFieldNames
            return try candidates.filter { try predicate.evaluate(RecordObject(record: $0, searchableFields: searchable)) }
        } catch {
            throw RecordStoreError(evaluating: error)
        }
    }
}

