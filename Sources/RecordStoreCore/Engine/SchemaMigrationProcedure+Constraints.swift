extension SchemaMigrationProcedure {
    /// Refuses a definition that gives a stored record type a uniqueness constraint its
    /// records already break (two records of one zone with the same values in the constraint's
    /// fields), before anything changes, as a migration refuses it: every engine's `define`
    /// calls this on its transaction, so that a schema file (`.ckdb`'s `UNIQUE`, a Core Data
    /// model's constraints) cannot leave a store whose records break its own rule.
    ///
    /// ```swift
    /// var storage = MyMigrationStorage(transaction)
    /// try await SchemaMigrationProcedure.checkAddedConstraints(of: recordTypes, catalog: catalog, storage: &storage)
    /// try await defineInStorage(recordTypes)
    /// ```
    ///
    /// - Throws: ``RecordStoreError/migrationRefused(_:)`` listing each broken constraint
    ///   (``MigrationProblem/constraintBroken(recordType:constraint:)``).
    @_spi(StorageEngine) public static func checkAddedConstraints(
        of recordTypes: [RecordTypeSchema], catalog: SchemaCatalog, storage: inout some SchemaMigrationStorage
    ) async throws(RecordStoreError) {
        var problems: [MigrationProblem] = []
        do {
            for schema in recordTypes {
                guard let stored = catalog.recordTypes[schema.name] else { continue }
                problems += try await brokenConstraints(of: schema, stored: stored, renamedFields: [:], storage: &storage)
            }
        } catch {
            throw RecordStoreError(thrownBy: error)
        }
        if !problems.isEmpty { throw .migrationRefused(problems) }
    }

    /// The constraints of `schema` that `stored` (the type as the store holds it, its fields
    /// under their old names) lacks and that its records break. `renamedFields` maps old field
    /// names to new ones.
    static func brokenConstraints(
        of schema: RecordTypeSchema, stored: RecordTypeSchema, renamedFields: [String: String],
        storage: inout some SchemaMigrationStorage
    ) async throws -> [MigrationProblem] {
        var problems: [MigrationProblem] = []
        for constraint in schema.uniquenessConstraints {
            let oldNames = constraint.map { name in renamedFields.first { $0.value == name }?.key ?? name }
            guard !stored.uniquenessConstraints.contains(oldNames), oldNames.allSatisfy({ stored.field(named: $0) != nil }) else { continue }
            if try await storage.sharesValues(oldNames, of: stored) {
                problems.append(.constraintBroken(recordType: schema.name, constraint: constraint))
            }
        }
        return problems
    }
}
