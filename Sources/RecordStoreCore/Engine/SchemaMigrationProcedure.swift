/// Runs a ``SchemaMigration`` on an engine's storage (``SchemaMigrationStorage``), in the
/// engine's transaction, so that every engine migrates alike:
///
/// 1. The store is still at the version the migration was planned from; then the checks on the
///    records (a field that becomes required without a default, a new required field on a type
///    that holds records): every problem is thrown together
///    (``RecordStoreError/migrationRefused(_:)``) before anything changes.
/// 2. Each restructured type (``RecordTypeMigration/restructures``) loses its indexes; its
///    removed fields are dropped, its fields and itself renamed.
/// 3. Those types are defined without indexes (the new fields' columns come), then the
///    defaults are filled in where records have no value.
/// 4. Every type of the new version is defined as it is, with its indexes and relationships,
///    then the templates; the catalog remembers the model version.
///
/// Records keep their change tags, dates and history positions throughout.
///
/// ```swift
/// try await SchemaMigrationProcedure.run(migration, catalog: &catalog, storage: &storage)
/// ```
@_spi(StorageEngine) public enum SchemaMigrationProcedure {
    /// Runs the migration; `catalog` is the transaction's, changed as the steps go.
    @_spi(StorageEngine) public static func run(
        _ migration: SchemaMigration, catalog: inout SchemaCatalog, storage: inout some SchemaMigrationStorage
    ) async throws(RecordStoreError) {
        do {
            try await check(migration, catalog: catalog, storage: &storage)
            let restructured = migration.recordTypes.filter(\.restructures)
            // Each type under its old name: indexes down, removed fields gone, fields renamed.
            var current: [String: RecordTypeSchema] = [:]
            for type in restructured {
                guard let source = type.source, let old = catalog.recordTypes[source] else { continue }
                var schema = RecordTypeMigration.stripped(old)
                try await storage.takeDownIndexes(from: old, to: schema)
                for name in type.removedFields {
                    guard let field = schema.field(named: name) else { continue }
                    try await storage.removeField(field, of: schema)
                    schema.fields.removeAll { $0.name == name }
                }
                for (from, to) in RenameOrder.steps(type.renamedFields, inUse: Set(schema.fields.map(\.name))) {
                    guard let position = schema.fields.firstIndex(where: { $0.name == from }) else { continue }
                    try await storage.renameField(schema.fields[position], to: to, of: schema)
                    schema.fields[position].name = to
                }
                current[source] = schema
            }
            // Then the types renamed, each onto a free name (chains and swaps of names included).
            let renamedTypes = Dictionary(restructured.compactMap { type in type.source.map { ($0, type.target.name) } }, uniquingKeysWith: { first, _ in first })
            for (from, to) in RenameOrder.steps(renamedTypes, inUse: Set(catalog.recordTypes.keys)) {
                guard var schema = current.removeValue(forKey: from) else { continue }
                try await storage.renameRecordType(schema, to: to)
                schema.name = to
                current[to] = schema
            }
            catalog.restructure(restructured)
            // The new version's relationships replace the old ones (a removed one goes).
            for type in migration.recordTypes where catalog.recordTypes[type.target.name] != nil {
                catalog.recordTypes[type.target.name]?.relationships = []
            }
            if !restructured.isEmpty {
                try await storage.define(restructured.map(\.strippedTarget), templates: [], catalog: &catalog)
                for type in restructured {
                    guard let schema = catalog.recordTypes[type.target.name] else { continue }
                    for (name, value) in type.filledDefaults.sorted(by: { $0.key < $1.key }) {
                        guard let field = schema.field(named: name) else { continue }
                        try await storage.fill(field, of: schema, with: value)
                    }
                }
            }
            try await storage.define(migration.recordTypes.map(\.target), templates: migration.templates, catalog: &catalog)
            try catalog.checkRelationships()
            catalog.modelVersion = migration.toVersion
        } catch {
            throw RecordStoreError(thrownBy: error)
        }
    }

    /// Throws every problem the records give, before anything changes.
    private static func check(
        _ migration: SchemaMigration, catalog: SchemaCatalog, storage: inout some SchemaMigrationStorage
    ) async throws {
        guard catalog.modelVersion == migration.fromVersion else {
            throw RecordStoreError.migrationRefused([.versionChanged(planned: migration.fromVersion, stored: catalog.modelVersion)])
        }
        var problems: [MigrationProblem] = []
        for type in migration.recordTypes {
            guard let source = type.source, let old = catalog.recordTypes[source] else { continue }
            if !type.mustBeEmpty.isEmpty, try await storage.holdsRecords(old) {
                problems += type.mustBeEmpty.map { .requiredWithoutDefault(recordType: type.target.name, field: $0) }
            }
            for name in type.mustHaveValues {
                let oldName = type.renamedFields.first { $0.value == name }?.key ?? name
                guard let field = old.field(named: oldName) else { continue }
                if try await storage.lacksValues(field, of: old) {
                    problems.append(.missingValues(recordType: type.target.name, field: name))
                }
            }
            // A new uniqueness constraint must hold on the records already stored.
            problems += try await brokenConstraints(of: type.target, stored: old, renamedFields: type.renamedFields, storage: &storage)
        }
        if !problems.isEmpty { throw RecordStoreError.migrationRefused(problems) }
    }
}
