import Foundation
import PredicateLanguage
@_spi(StorageEngine) import RecordStoreCore
import Synchronization

/// A storage engine written the way one in a package of its own would be: this target is built
/// without the package's `package` access (`packageAccess: false`), so it sees only what
/// `RecordStoreCore` publishes under `@_spi(StorageEngine)`. It keeps every record in one
/// dictionary and answers queries with the predicate language's evaluator, the way the article
/// "Writing a storage engine" describes for an engine that is not SQL.
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
                versions[id] = StoredVersion(recordType: record.recordType, changeTag: record.recordChangeTag, creationDate: record.creationDate)
            }
            return versions
        }

        func storedRecords(_ ids: [RecordID]) -> [RecordID: Record] {
            ids.reduce(into: [RecordID: Record]()) { found, id in found[id] = records[id] }
        }

        func records(matching lookup: ReferenceLookup) -> [Record] { lookup.filter(records.values) }

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
    let name = "dictionary"
    let secret = StoreSecret.random()
    let changeFeed: ChangeFeed
    var answersSynchronously: Bool { true }

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
            let entries = limit > 0 ? contents.history.entries(of: zone, after: place, limit: limit, recordTypes: recordTypes) : []
            var records: [String: Record] = [:]
            for entry in entries where !entry.isDeletion {
                records[entry.recordName] = contents.records[RecordID(recordName: entry.recordName, zoneID: zone)]
            }
            return HistoryPage(
                entries: entries, records: records, position: contents.history.position, floor: contents.history.floor,
                zoneCreated: contents.history.creation(of: zone) ?? 0)
        }
    }

    func zoneHistory(after place: HistoryPosition, limit: Int) async throws(RecordStoreError) -> ZoneHistoryPage {
        contents.withLock { contents in
            ZoneHistoryPage(entries: contents.history.zoneEntries(after: place, limit: limit), position: contents.history.position, floor: contents.history.floor)
        }
    }

    func pruneHistory(deletedBefore date: Date) async throws(RecordStoreError) {
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

    func explain(_ query: QuerySpecification) async throws(RecordStoreError) -> QueryPlan {
        QueryPlan(engine: name, sql: "", arguments: [], residual: query.predicate.predicateFormat,
                  indexesUsed: [], queryPlanDetails: ["scan every record"], estimatedRows: [])
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

extension StoreScheme {
    /// `dictionary:` opens a new, empty ``DictionaryEngine``.
    static let dictionary = StoreScheme(names: ["dictionary"], usage: "dictionary:", answersSynchronously: true) { _, _ in
        DictionaryEngine()
    }
}
