import Foundation
import PredicateLanguage

/// An open record store: records in zones, a schema, and queries in the predicate language.
///
/// ```swift
/// let store = try Store.open(path: "cities.sqlite")          // SQLite, development mode
/// var paris = Record(recordType: "City", recordID: RecordID(recordName: "2988507"))
/// paris["name"] = "Paris"
/// paris["population"] = 2_138_551
/// _ = try store.save([paris])
/// let big = try store.records(
///     ofType: "City",
///     matching: FormatPredicate(format: "population > %d", 1_000_000),
///     sorts: [Sort("population", ascending: false)])
/// ```
///
/// A store is safe to share between threads and tasks; with SQLite, readers run while a write is in progress.
public final class Store: Sendable {
    let engine: any StorageEngine
    /// Development (the schema grows with the data) or production (fixed schema, indexes required).
    public let mode: SchemaMode

    private init(engine: any StorageEngine, mode: SchemaMode) {
        self.engine = engine
        self.mode = mode
    }

    /// A store that keeps everything in memory and runs queries with the evaluator.
    ///
    /// ```swift
    /// let store = Store.inMemory()
    /// ```
    public static func inMemory(mode: SchemaMode = .development) -> Store {
        Store(engine: MemoryEngine(), mode: mode)
    }

    /// Opens (creating when needed) a SQLite store at a file path.
    ///
    /// ```swift
    /// let store = try Store.open(path: "./query.sqlite")
    /// ```
    public static func open(path: String, mode: SchemaMode = .development) throws(RecordStoreError) -> Store {
        Store(engine: try SQLiteEngine(path: path), mode: mode)
    }

    /// The engine's name: `memory` or `sqlite`.
    public var engineName: String { engine.name }

    // MARK: Records

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
        try engine.save(records, mode: mode)
    }

    /// Deletes records; identifiers without a stored record are ignored.
    ///
    /// ```swift
    /// try store.delete([RecordID(recordName: "2988507")])
    /// ```
    public func delete(_ ids: [RecordID]) throws(RecordStoreError) {
        try engine.delete(ids.filter(\.canBeStored))
    }

    /// The stored record with this identifier, or nil.
    ///
    /// ```swift
    /// let paris = try store.record(for: RecordID(recordName: "2988507"))
    /// ```
    public func record(for id: RecordID) throws(RecordStoreError) -> Record? {
        guard id.canBeStored else { return nil }
        return try engine.record(for: id)
    }

    /// Refreshes the query planner's statistics; the importer calls it after a bulk import.
    /// Call it after saving many records yourself.
    ///
    /// ```swift
    /// try store.save(manyRecords)
    /// try store.optimize()
    /// ```
    public func optimize() throws(RecordStoreError) {
        try engine.optimize()
    }

    // MARK: Zones

    /// Creates a zone; creating one that exists does nothing.
    ///
    /// ```swift
    /// try store.createZone(ZoneID(zoneName: "Archive"))
    /// ```
    public func createZone(_ zone: ZoneID) throws(RecordStoreError) {
        guard !NulCharacter.isIn(zone.zoneName) else { throw .invalidZoneName(zone.zoneName) }
        try engine.createZone(zone)
    }

    /// The zones, the default zone first.
    ///
    /// ```swift
    /// try store.zones()   // [_defaultZone, Archive]
    /// ```
    public func zones() throws(RecordStoreError) -> [ZoneID] {
        try engine.zones()
    }

    /// Deletes a zone and all of its records. The default zone cannot be deleted.
    ///
    /// ```swift
    /// try store.deleteZone(ZoneID(zoneName: "Archive"))
    /// ```
    public func deleteZone(_ zone: ZoneID) throws(RecordStoreError) {
        guard !NulCharacter.isIn(zone.zoneName) else { throw .zoneNotFound(zone) }
        try engine.deleteZone(zone)
    }

    // MARK: Schema

    /// All record types, by name.
    ///
    /// ```swift
    /// for type in try store.schema() { print(type) }
    /// ```
    public func schema() throws(RecordStoreError) -> [RecordTypeSchema] {
        try engine.catalog().sorted
    }

    /// The schema of one record type, or nil when it does not exist.
    ///
    /// ```swift
    /// try store.schema(for: "City")?.field(named: "population")?.type   // .int64
    /// ```
    public func schema(for recordType: String) throws(RecordStoreError) -> RecordTypeSchema? {
        try engine.catalog().recordTypes[recordType]
    }

    /// Adds a record type or fields, or changes index flags (in either mode).
    ///
    /// ```swift
    /// try store.define(RecordTypeSchema(name: "City", fields: [
    ///     FieldSchema(name: "name", type: .string, isSearchable: true),
    ///     FieldSchema(name: "population", type: .int64, isQueryable: false, isSortable: true),
    /// ]))
    /// ```
    public func define(_ recordType: RecordTypeSchema) throws(RecordStoreError) {
        try engine.define(recordType)
    }

    // MARK: Queries

    func specification(
        _ recordType: String, _ predicate: FormatPredicate, _ sorts: [Sort], _ zone: ZoneID, _ limit: Int?
    ) throws(RecordStoreError) -> QuerySpecification {
        let specification = QuerySpecification(recordType: recordType, predicate: predicate, sorts: sorts, zone: zone, limit: limit)
        try QueryValidation.check(specification, schema: try engine.catalog().recordTypes[recordType], mode: mode)
        guard !NulCharacter.isIn(zone.zoneName) else { throw .zoneNotFound(zone) }
        return specification
    }

    /// The records of a type in a zone that match a predicate, sorted, at most `limit` of them.
    ///
    /// ```swift
    /// let french = try store.records(
    ///     ofType: "City",
    ///     matching: FormatPredicate(format: "countrycode == 'FR' AND population > 500000"),
    ///     sorts: [Sort("population", ascending: false)],
    ///     limit: 10)
    /// ```
    public func records(
        ofType recordType: String, matching predicate: FormatPredicate, sorts: [Sort] = [],
        zone: ZoneID = .default, limit: Int? = nil
    ) throws(RecordStoreError) -> [Record] {
        try engine.records(specification(recordType, predicate, sorts, zone, limit))
    }

    /// How many records of a type in a zone match a predicate.
    ///
    /// ```swift
    /// try store.count(ofType: "City", matching: FormatPredicate(format: "countrycode == 'FR'"))   // 470
    /// ```
    public func count(ofType recordType: String, matching predicate: FormatPredicate, zone: ZoneID = .default) throws(RecordStoreError) -> Int {
        try engine.count(specification(recordType, predicate, [], zone, nil))
    }

    /// How a query would run: its SQL, arguments, residual predicate and indexes.
    ///
    /// ```swift
    /// print(try store.explain(ofType: "City", matching: FormatPredicate(format: "name BEGINSWITH 'Par'")))
    /// ```
    public func explain(
        ofType recordType: String, matching predicate: FormatPredicate, sorts: [Sort] = [],
        zone: ZoneID = .default, limit: Int? = nil
    ) throws(RecordStoreError) -> QueryPlan {
        try engine.explain(specification(recordType, predicate, sorts, zone, limit))
    }
}
