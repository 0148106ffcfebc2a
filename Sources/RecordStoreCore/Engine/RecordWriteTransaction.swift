import Foundation

/// What a save needs from an engine inside one write transaction: the engine opens the
/// transaction, hands ``SaveProcedure`` a value of this protocol, and commits when the
/// procedure returns (rolls back when it throws).
///
/// The procedure reads first (catalog, stored versions, zones, and for deletions the records
/// their deletion rules reach), decides everything in Swift
/// (``SaveRules``), and only then writes, so an engine without rollback (the memory engine)
/// never applies half a save.
///
/// Each step is `async`, so that a server's transaction awaits its database; an embedded
/// engine's steps are synchronous functions, which satisfy the same requirements.
///
/// ```swift
/// var transaction = SQLiteWriteTransaction(db: db, executor: executor)
/// let outcome = try await SaveProcedure.run(changes, mode: mode, in: &transaction)
/// ```
@_spi(StorageEngine) public protocol RecordWriteTransaction {
    /// The schema as stored in this transaction.
    mutating func readCatalog() async throws -> SchemaCatalog
    /// The schema as stored in this transaction, read by a save whose next question is
    /// ``storedVersions(of:)`` of `ids`: an engine whose every statement is a round trip may read
    /// what it will answer then in the same one (PostgreSQL reads its registry). By default,
    /// ``readCatalog()``.
    mutating func readCatalog(beforeReadingVersionsOf ids: [RecordID]) async throws -> SchemaCatalog
    /// The stored versions of these records (absent when not stored).
    mutating func storedVersions(of ids: [RecordID]) async throws -> [RecordID: StoredVersion]
    /// The full stored records with these identifiers (absent when not stored): the records a
    /// deletion rule reads (a deleted record's to-ones and reference lists, the records a
    /// nullify rewrites).
    mutating func storedRecords(_ ids: [RecordID]) async throws -> [RecordID: Record]
    /// The stored records a ``ReferenceLookup`` finds: of its type in its zone, whose field
    /// references any of its targets (the inverse of a relationship, for deletion rules). A SQL
    /// engine runs ``ReferenceLookup/specifications`` (served by the field's index or list
    /// table); an engine that holds its records in Swift filters them (``ReferenceLookup/filter(_:)``).
    mutating func records(matching lookup: ReferenceLookup) async throws -> [Record]
    /// The stored records a ``UniquenessLookup`` finds: of its type in its zone, whose
    /// constrained fields hold one of its keys (the records a save's records may conflict with,
    /// ``ConstraintResolution``). A SQL engine runs ``UniquenessLookup/specifications`` (served by
    /// the constraint's index); an engine that holds its records in Swift filters them
    /// (``UniquenessLookup/filter(_:)``).
    ///
    /// An engine that does not implement it keeps working for every record type without
    /// uniqueness constraints: the default refuses, with a storage error naming the type, only
    /// a save that touches a constrained type, rather than let it through unchecked.
    mutating func records(matching lookup: UniquenessLookup) async throws -> [Record]
    /// Which of these zones exist.
    mutating func existingZones(among zones: Set<ZoneID>) async throws -> Set<ZoneID>
    /// Makes the storage follow schema changes (tables, columns, indexes) and stores the catalog.
    mutating func applySchemaChanges(_ changes: [SchemaChange], catalog: SchemaCatalog) async throws
    /// Takes the store's next change position, which the save's changes carry
    /// (``WritePlan/changePosition``). A reader of the history must never pass a position that a
    /// running transaction may still commit: an engine with one writer at a time (SQLite, memory)
    /// has that from its write lock; PostgreSQL's positions are transaction IDs, which readers
    /// read only up to the oldest running writer (`PostgresChangePositions`). When the position
    /// is taken last (``takesChangePositionLast(_:schemaChanges:)``), the engine may take it in
    /// ``recordHistory(_:at:date:)`` instead, with the rest of the history, and return a number
    /// that nobody reads (PostgreSQL does).
    mutating func nextChangePosition() async throws -> Int64
    /// Whether this save takes its change position after its writes, just before its history
    /// (``recordHistory(_:at:date:)`` then gives its new records their position too), rather
    /// than before them. PostgreSQL takes it last, so that one statement takes it, records the
    /// history and notifies (`PostgresCommitStatement`): a round trip saved, since taking it
    /// locks nothing. False by default.
    func takesChangePositionLast(_ plan: WritePlan, schemaChanges: [SchemaChange]) -> Bool
    /// Writes what the save decided, under the (possibly changed) catalog. New records carry
    /// the plan's change position in the history from the start, unless the position is taken
    /// last (``takesChangePositionLast(_:schemaChanges:)``): then they carry 0 until the history
    /// is recorded.
    mutating func apply(_ plan: WritePlan, catalog: SchemaCatalog) async throws
    /// Records a commit in the change history at its position: the positions of the records it
    /// updated (and of those it created, when the position was taken after they were written),
    /// a tombstone (with its record type and `date`) for each record it deleted, the tombstones
    /// of records it created again removed, and the position of each zone it touched.
    mutating func recordHistory(_ changes: CommittedChanges, at position: Int64, date: Date) async throws
    /// Records what the commit changes, for live queries in other handles and clients, and
    /// returns the commit's sequence number (``CommittedChanges/sequence``).
    mutating func logCommit(_ changes: CommittedChanges) async throws -> Int64
}

extension RecordWriteTransaction {
    /// An engine whose reads cost no round trip reads the catalog alone.
    @_spi(StorageEngine) public mutating func readCatalog(beforeReadingVersionsOf ids: [RecordID]) async throws -> SchemaCatalog {
        try await readCatalog()
    }

    /// An engine with one writer at a time takes its position first: nothing waits on it.
    @_spi(StorageEngine) public func takesChangePositionLast(_ plan: WritePlan, schemaChanges: [SchemaChange]) -> Bool { false }

    /// An engine written before uniqueness constraints cannot find the records a key conflicts
    /// with, so a save of a constrained type is refused, naming the type and what to implement.
    /// Saves of every other type never ask.
    @_spi(StorageEngine) public mutating func records(matching lookup: UniquenessLookup) async throws -> [Record] {
        throw RecordStoreError.storage(
            "this storage engine cannot enforce the uniqueness constraint on \(lookup.fields.joined(separator: ", ")) of record type '\(lookup.recordType)': "
                + "it does not implement RecordWriteTransaction.records(matching: UniquenessLookup), which finds the stored records holding a key")
    }
}
