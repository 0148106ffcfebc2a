import Foundation
import PredicateLanguage

/// The contract every storage engine fulfils; ``Store`` is the public face over one engine.
///
/// An engine keeps records in zones and a schema catalog, and answers queries given as a
/// ``QuerySpecification``. Every method is `async` and never blocks a cooperative thread on
/// I/O: the SQLite engine runs its work on GRDB's own dispatch queues, a server engine on its
/// client's event loops. An engine writes each operation once, as an `async` method;
/// ``Store``'s synchronous methods reach the same methods through `SynchronousCall`, for the
/// engines that say they may (``answersSynchronously``: memory and SQLite, whose work is local).
/// While a synchronous caller waits (`SynchronousCall/isWaiting`), an embedded engine may do
/// its blocking I/O directly on the caller's thread.
///
/// The contract is published for engine authors as `@_spi(StorageEngine) public`: an engine in
/// a package of its own conforms after `@_spi(StorageEngine) import RecordStoreCore`, and
/// application code, which imports `RecordStore` plainly, only ever sees ``Store``. The article
/// "Writing a storage engine" lists what an engine implements and what it gets for free.
///
/// What an engine must guarantee, whatever its storage:
/// - `records`, `count` and `aggregate` give exactly the answers of `MemoryEngine` (the
///   evaluator over the records) on the same data, in the order of ``RecordOrdering``; each
///   reads one consistent snapshot, and validates the query against the catalog of that
///   snapshot (``QueryValidation``).
/// - `modify` is one transaction, all or nothing, checked by ``SaveProcedure``'s rules.
///
/// ```swift
/// @_spi(StorageEngine) import RecordStoreCore
///
/// final class MyEngine: StorageEngine { ... }
/// let store = Store(engine: MyEngine())
/// ```
@_spi(StorageEngine) public protocol StorageEngine: Sendable {
    /// The engine's name in plans: `memory`, `sqlite`, `postgres`.
    var name: String { get }
    /// The store's identity and the key its cursors are signed with, fixed for the store's life.
    var secret: StoreSecret { get }

    /// Saves and deletes records in one transaction (all or none); returns the saved records
    /// with their new change tags and dates. See ``SaveProcedure`` for the rules.
    func modify(_ changes: RecordChangeSet, mode: SchemaMode) async throws(RecordStoreError) -> [Record]
    /// Runs a batch update in one transaction as a few statements over the matching rows,
    /// without reading the records (``SetBasedUpdate``), and returns the names of the records
    /// updated, in code-point order; nil when it does not (the default), and then nothing was
    /// changed: ``Store`` reads the matches and saves them, which gives the same result.
    func updateRecords(_ request: SetBasedUpdate.Request) async throws(RecordStoreError) -> [String]?
    /// The stored records with these identifiers (missing ones absent), read in one snapshot.
    func records(for ids: [RecordID]) async throws(RecordStoreError) -> [RecordID: Record]

    /// Creates a zone (nothing happens when it exists).
    func createZone(_ zone: ZoneID) async throws(RecordStoreError)
    /// The zones, the default zone first, then by name.
    func zones() async throws(RecordStoreError) -> [ZoneID]
    /// Deletes a zone and its records; the default zone cannot be deleted.
    func deleteZone(_ zone: ZoneID) async throws(RecordStoreError)

    /// The current schema of every record type.
    func catalog() async throws(RecordStoreError) -> SchemaCatalog
    /// Adds or updates record types' schemas and their indexes, then adds or replaces fetch
    /// request templates, in one transaction: when one of them fails, none is applied. Each is
    /// checked by `SchemaCatalog.define` against the catalog of that transaction, in order (a
    /// template may name a record type of the same call). `progress` hears each index the
    /// engine builds on a table that holds records (an engine that builds them otherwise may
    /// tell nothing). ``Store``'s `define` methods all come here, one record type or template
    /// at a time or, for a schema file, all of it at once.
    ///
    /// ```swift
    /// try await engine.define([city, country], templates: [FetchRequestTemplate(name: "Big", recordType: "City")], progress: nil)
    /// ```
    func define(_ recordTypes: [RecordTypeSchema], templates: [FetchRequestTemplate], progress: StoreOpeningProgressHandler?) async throws(RecordStoreError)
    /// Migrates the schema to a newer version of a Core Data model in one transaction
    /// (``SchemaMigrationProcedure`` runs the steps on the engine's storage): record types and
    /// fields renamed, removed and added, defaults filled in, indexes changed; records keep their
    /// change tags, dates and history positions. The catalog then remembers the model version.
    /// The default defines the target record types when that does all of it
    /// (``SchemaMigration/isAdditive``) and refuses anything else.
    ///
    /// ```swift
    /// try await engine.migrate(try model.migration(from: engine.catalog()), progress: nil)
    /// ```
    func migrate(_ migration: SchemaMigration, progress: StoreOpeningProgressHandler?) async throws(RecordStoreError)

    /// The records a query selects, in order (after its keyset position or offset, at most its limit).
    func records(_ query: QuerySpecification) async throws(RecordStoreError) -> [Record]
    /// How many records a query selects (its limit, offset and position are ignored).
    func count(_ query: QuerySpecification) async throws(RecordStoreError) -> Int
    /// One row per group of the matching records: the group-by values and the aggregates (nil values left out).
    func aggregate(
        _ query: QuerySpecification, groupBy: [String], aggregates: [AggregateProperty]
    ) async throws(RecordStoreError) -> [[String: Value]]
    /// How the engine runs a query.
    func explain(_ query: QuerySpecification) async throws(RecordStoreError) -> QueryPlan

    /// Refreshes whatever statistics the engine's query planner uses (after a bulk import).
    func optimize() async throws(RecordStoreError)

    /// Whether the engine plans key paths through relationships (`department.name == "Sales"`)
    /// itself. Such an engine answers the walks it decides exactly, validates queries with
    /// `QueryValidation.check(_:catalog:allowsRelationshipWalks:)` set, and throws
    /// ``RecordStoreError/relationshipWalkNotPlanned(_:recordType:)`` for a walk it cannot decide
    /// exactly. For any other query that walks (and for every such query of an engine that does
    /// not plan walks, the default), ``Store`` answers it itself (`RelationshipQuery`): the engine
    /// runs the conjuncts that walk nothing, and the related records are read through its
    /// lookups and queries.
    var plansRelationshipWalks: Bool { get }

    /// Whether ``Store``'s synchronous methods may wait for this engine: true for engines whose
    /// work is local (memory, a file), false for a database server, whose users call the
    /// `async` methods.
    var answersSynchronously: Bool { get }
    /// Prepares a bulk load of about `incoming` records of a type (an engine may defer index
    /// upkeep until ``finishBulkLoad(progress:)``; queries stay exact meanwhile).
    func beginBulkLoad(of recordType: String, incoming: Int) async throws(RecordStoreError)
    /// Ends a bulk load: whatever ``beginBulkLoad(of:incoming:)`` deferred is done now;
    /// `progress` hears each index as it is built.
    func finishBulkLoad(progress: StoreOpeningProgressHandler?) async throws(RecordStoreError)

    /// The commits of the store, from this handle and from everywhere else the engine can hear
    /// of (other handles, processes, clients): what live queries follow.
    var changeFeed: ChangeFeed { get }

    /// A zone's change history after a place, read in one snapshot: at most `limit + 1`
    /// entries (records saved, with their versions, and tombstones) of the record types given
    /// (nil: all), with the store's position and floor and the zone's creation. Its cost grows
    /// with the entries read, not with the zone. Throws ``RecordStoreError/zoneNotFound(_:)``
    /// for a zone that does not exist. A limit of 0 reads only the bounds.
    func history(of zone: ZoneID, after place: HistoryPosition, limit: Int, recordTypes: Set<String>?) async throws(RecordStoreError) -> HistoryPage
    /// The database's zone history after a place, read in one snapshot: at most `limit + 1`
    /// zones created, changed (records saved or deleted in them) or deleted.
    func zoneHistory(after place: HistoryPosition, limit: Int) async throws(RecordStoreError) -> ZoneHistoryPage
    /// Drops the tombstones (of records and zones) of deletions made before `date`, and raises
    /// the floor to the last position dropped: tokens from before it expire. Returns how many
    /// tombstones were dropped and how many are kept.
    func pruneHistory(deletedBefore date: Date) async throws(RecordStoreError) -> HistoryPruning

    /// Opens (creating when needed) the engine of a separate store beside this one, called
    /// `name` (``Store/openSibling(named:mode:schemaLimits:progress:)``): storage of its own
    /// (records, schema, write lock, change feed), which the same name finds again. The default
    /// throws ``RecordStoreError/invalidStoreLocation(_:reason:)``: an engine keeps no store
    /// beside its own unless it says where.
    func openSibling(named name: String, progress: StoreOpeningProgressHandler?) async throws(RecordStoreError) -> any StorageEngine
}

extension StorageEngine {
    /// A server engine by default: only the `async` methods.
    @_spi(StorageEngine) public var answersSynchronously: Bool { false }
    /// No set-based batch update by default: ``Store`` reads the matches and saves them.
    ///
    /// ```swift
    /// try await engine.updateRecords(SetBasedUpdate.Request(query: query, values: ["visited": true], author: nil))   // nil
    /// ```
    @_spi(StorageEngine) public func updateRecords(_ request: SetBasedUpdate.Request) async throws(RecordStoreError) -> [String]? { nil }
    /// Adds or updates a record type's schema and its indexes: the batch
    /// ``define(_:templates:progress:)`` of one type, telling `progress` of each index it builds.
    ///
    /// ```swift
    /// try await engine.define(RecordTypeSchema(name: "City", fields: [FieldSchema(name: "name", type: .string)]))
    /// ```
    @_spi(StorageEngine) public func define(_ schema: RecordTypeSchema, progress: StoreOpeningProgressHandler? = nil) async throws(RecordStoreError) {
        try await define([schema], templates: [], progress: progress)
    }
    /// Adds or replaces a fetch request template in the stored catalog: the batch
    /// ``define(_:templates:progress:)`` of one template.
    ///
    /// ```swift
    /// try await engine.define(FetchRequestTemplate(name: "All", recordType: "City"))
    /// ```
    @_spi(StorageEngine) public func define(_ template: FetchRequestTemplate) async throws(RecordStoreError) {
        try await define([], templates: [template], progress: nil)
    }
    /// Defines the target record types of an additive migration; refuses one that renames,
    /// removes or fills in (``MigrationProblem/unsupportedByEngine(engine:step:)``). The model
    /// version is not remembered, so the next version is applied the same way.
    @_spi(StorageEngine) public func migrate(_ migration: SchemaMigration, progress: StoreOpeningProgressHandler?) async throws(RecordStoreError) {
        guard migration.isAdditive else {
            let steps = migration.steps.filter { step in
                switch step {
                case .addedRecordType, .addedField(_, _, nil), .changedIndexes, .addedRelationship, .keptRecordType, .addedConstraint,
                     .removedConstraint, .changedParentType:
                    false
                default: true
                }
            }
            throw .migrationRefused(steps.map { .unsupportedByEngine(engine: name, step: $0.description) })
        }
        try await define(migration.recordTypes.map(\.target), templates: migration.templates, progress: progress)
    }
    /// No relationship walks of its own: ``Store`` walks them.
    @_spi(StorageEngine) public var plansRelationshipWalks: Bool { false }
    /// Nothing to defer: indexes are kept up to date row by row.
    @_spi(StorageEngine) public func beginBulkLoad(of recordType: String, incoming: Int) async throws(RecordStoreError) {}
    /// Nothing was deferred.
    @_spi(StorageEngine) public func finishBulkLoad(progress: StoreOpeningProgressHandler?) async throws(RecordStoreError) {}
    /// No store beside this one: ``RecordStoreError/invalidStoreLocation(_:reason:)``.
    @_spi(StorageEngine) public func openSibling(named name: String, progress: StoreOpeningProgressHandler?) async throws(RecordStoreError) -> any StorageEngine {
        throw .invalidStoreLocation("the store '\(name)' beside a \(self.name) store", reason: "the \(self.name) engine keeps no store beside its own")
    }
}
