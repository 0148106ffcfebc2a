import PredicateLanguage

/// An engine that also answers synchronously, because its work is local: the memory engine
/// (computation only) and SQLite (a file, read through GRDB's blocking API on the caller's
/// thread). It backs ``Store``'s synchronous methods, so that the seed's
/// `try Entity.query(in: context).all()` works without `await`.
///
/// The synchronous forms block the calling thread while the engine works: call them from
/// synchronous code. From `async` code, the `async` forms of ``StorageEngine`` run the same
/// work without blocking a cooperative thread.
///
/// ```swift
/// let engine = try SQLiteEngine(path: "cities.sqlite")
/// let count = try engine.count(specification)          // synchronous
/// let same = try await engine.count(specification)     // async, off the cooperative pool
/// ```
package protocol EmbeddedStorageEngine: StorageEngine {
    /// The synchronous form of ``StorageEngine/modify(_:mode:)``.
    func modify(_ changes: RecordChangeSet, mode: SchemaMode) throws(RecordStoreError) -> [Record]
    /// The synchronous form of ``StorageEngine/records(for:)``.
    func records(for ids: [RecordID]) throws(RecordStoreError) -> [RecordID: Record]
    /// The synchronous form of ``StorageEngine/createZone(_:)``.
    func createZone(_ zone: ZoneID) throws(RecordStoreError)
    /// The synchronous form of ``StorageEngine/zones()``.
    func zones() throws(RecordStoreError) -> [ZoneID]
    /// The synchronous form of ``StorageEngine/deleteZone(_:)``.
    func deleteZone(_ zone: ZoneID) throws(RecordStoreError)
    /// The synchronous form of ``StorageEngine/catalog()``.
    func catalog() throws(RecordStoreError) -> SchemaCatalog
    /// The synchronous form of ``StorageEngine/define(_:)``.
    func define(_ schema: RecordTypeSchema) throws(RecordStoreError)
    /// The synchronous form of ``StorageEngine/records(_:)``.
    func records(_ query: QuerySpecification) throws(RecordStoreError) -> [Record]
    /// The synchronous form of ``StorageEngine/count(_:)``.
    func count(_ query: QuerySpecification) throws(RecordStoreError) -> Int
    /// The synchronous form of ``StorageEngine/aggregate(_:groupBy:aggregates:)``.
    func aggregate(
        _ query: QuerySpecification, groupBy: [String], aggregates: [AggregateProperty]
    ) throws(RecordStoreError) -> [[String: Value]]
    /// The synchronous form of ``StorageEngine/explain(_:)``.
    func explain(_ query: QuerySpecification) throws(RecordStoreError) -> QueryPlan
    /// The synchronous form of ``StorageEngine/optimize()``.
    func optimize() throws(RecordStoreError)
    /// Prepares a bulk load of about `incoming` records of a type (an engine may defer index
    /// upkeep until ``finishBulkLoad(progress:)``; queries stay exact meanwhile).
    func beginBulkLoad(of recordType: String, incoming: Int) throws(RecordStoreError)
    /// Ends a bulk load: whatever ``beginBulkLoad(of:incoming:)`` deferred is done now;
    /// `progress` hears each index as it is built.
    func finishBulkLoad(progress: StoreOpeningProgressHandler?) throws(RecordStoreError)
}

extension EmbeddedStorageEngine {
    /// Nothing to defer: indexes are kept up to date row by row.
    package func beginBulkLoad(of recordType: String, incoming: Int) throws(RecordStoreError) {}
    /// Nothing was deferred.
    package func finishBulkLoad(progress: StoreOpeningProgressHandler?) throws(RecordStoreError) {}
}
