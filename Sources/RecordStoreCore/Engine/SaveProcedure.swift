import Foundation

/// The one save of every engine: check duplicates, admit the records into the catalog (which
/// may grow it in development mode), read what is stored, decide with ``SaveRules``, resolve
/// uniqueness-constraint conflicts by the save's merge policy (``ConstraintResolution``), expand the
/// deletions by their deletion rules (``DeletionRuleExpansion``: cascades, denials, nullifying
/// rewrites, all read and decided before any write), check the schema's rules
/// (``SaveValidation``: defaults, required fields, ranges, lengths, patterns, relationship
/// counts), then apply the schema changes and the writes. Engines differ only in their
/// ``RecordWriteTransaction``.
///
/// ```swift
/// var transaction = PostgresWriteTransaction(connection: connection, executor: executor)
/// let outcome = try await SaveProcedure.run(changes, mode: .development, in: &transaction)
/// ```
@_spi(StorageEngine) public enum SaveProcedure {
    /// Runs a save in a transaction the caller opened; returns the saved records and what the
    /// commit changed (for live queries), logged by the transaction.
    @_spi(StorageEngine) public static func run<Transaction: RecordWriteTransaction>(
        _ changes: RecordChangeSet, mode: SchemaMode, in transaction: inout Transaction
    ) async throws -> SaveOutcome {
        // The records whose stored versions are read next are the ones given (admitting them
        // changes their values, never their identifiers); none when a name cannot be stored,
        // which admitting them refuses before anything is read.
        let identifiers = changes.saving.map(\.recordID) + changes.deleting
        let save = try await AdmittedSave(
            changes, mode: mode, catalog: transaction.readCatalog(beforeReadingVersionsOf: identifiers.allSatisfy(\.canBeStored) ? identifiers : []))
        var stored = try await transaction.storedVersions(of: save.identifiersToRead)
        var plan = try await save.plan(stored: stored, existingZones: transaction.existingZones(among: save.zonesToCheck))
        // Uniqueness constraints under a merging policy: resolved first, since a resolution may
        // delete an updated record merged away (whose deletion rules apply) and what it writes is
        // validated with the rest.
        if changes.mergePolicy != .error {
            try await ConstraintResolution.apply(to: &plan, stored: &stored, changes: changes, catalog: save.catalog, in: &transaction)
        }
        // Still reading and deciding: the deletion rules add their deletions and rewrites to the plan.
        try await DeletionRuleExpansion.apply(
            to: &plan, stored: &stored, saving: save.admitted, catalog: save.catalog, author: changes.author, in: &transaction)
        // Then the schema's rules, on what the plan would leave: defaults, then every check.
        try await SaveValidation.apply(to: &plan, stored: stored, catalog: save.catalog, in: &transaction)
        // Under `.error`, conflicts are reported after the schema's rules, as Core Data validates a
        // context's objects before its store finds their constraint conflicts.
        if changes.mergePolicy == .error {
            try await ConstraintResolution.apply(to: &plan, stored: &stored, changes: changes, catalog: save.catalog, in: &transaction)
        }
        // Decided. The change position: taken before the writes, so that new records are
        // registered at it, unless the engine takes it last (PostgreSQL, whose one history
        // statement then takes it, records the history and notifies: a round trip saved).
        let positionLast = transaction.takesChangePositionLast(plan, schemaChanges: save.schemaChanges)
        if !plan.isEmpty && !positionLast { plan.changePosition = try await transaction.nextChangePosition() }
        if !save.schemaChanges.isEmpty { try await transaction.applySchemaChanges(save.schemaChanges, catalog: save.catalog) }
        try await transaction.apply(plan, catalog: save.catalog)
        var committed = CommittedChanges(sequence: 0, plan: plan, stored: stored)
        if !committed.isEmpty {
            if positionLast { plan.changePosition = try await transaction.nextChangePosition() }
            try await transaction.recordHistory(committed, at: plan.changePosition, date: Date())
            committed.sequence = try await transaction.logCommit(committed)
        }
        return SaveOutcome(saved: plan.saved, changes: committed)
    }
}

/// What a save returns to its engine: the saved records, and the description of the commit the
/// engine hands its ``ChangeFeed`` once committed.
@_spi(StorageEngine) public struct SaveOutcome: Sendable {
    @_spi(StorageEngine) public var saved: [Record]
    @_spi(StorageEngine) public var changes: CommittedChanges
}

/// A save after its records were admitted into the catalog: what it must read before it can
/// decide, and the decision once read.
@_spi(StorageEngine) public struct AdmittedSave {
    @_spi(StorageEngine) public let changes: RecordChangeSet
    /// The records as the catalog admitted them (numbers normalized, nulls dropped).
    @_spi(StorageEngine) public let admitted: [Record]
    /// The catalog after admitting them.
    @_spi(StorageEngine) public let catalog: SchemaCatalog
    /// What admitting them changed in the catalog.
    @_spi(StorageEngine) public let schemaChanges: [SchemaChange]

    @_spi(StorageEngine) public init(_ changes: RecordChangeSet, mode: SchemaMode, catalog stored: SchemaCatalog) throws(RecordStoreError) {
        try SaveRules.checkDuplicates(changes.saving)
        var catalog = stored
        var admitted = changes.saving
        schemaChanges = try catalog.admit(&admitted, mode: mode, limits: changes.schemaLimits, changing: changes.changedFields)
        self.changes = changes
        self.admitted = admitted
        self.catalog = catalog
    }

    /// The records whose stored versions the decision needs.
    @_spi(StorageEngine) public var identifiersToRead: [RecordID] { admitted.map(\.recordID) + changes.deleting }

    /// The zones that must exist.
    @_spi(StorageEngine) public var zonesToCheck: Set<ZoneID> { Set(admitted.map(\.recordID.zoneID)).subtracting([.default]) }

    /// The writes, once the stored versions and zones are known.
    @_spi(StorageEngine) public func plan(stored: [RecordID: StoredVersion], existingZones: Set<ZoneID>) throws(RecordStoreError) -> WritePlan {
        try SaveRules.plan(admitted, changes: changes, stored: stored, existingZones: existingZones, now: Date())
    }
}
