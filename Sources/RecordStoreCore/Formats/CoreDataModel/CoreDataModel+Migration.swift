extension CoreDataModel {
    /// The migration that brings a store's schema to this model version, as Core Data's
    /// lightweight migration would (``SchemaMigration``), or the problems that refuse it.
    ///
    /// Each concrete entity's record type comes from the stored type of its name, or of its
    /// `renamingIdentifier` (a renamed entity). Inheritance is not a stored hierarchy here: each
    /// record type holds its inherited fields, so a changed parent entity is fields added and
    /// removed. Against each field of the stored type:
    /// - a property whose `renamingIdentifier` names a stored field renames it, values kept;
    /// - a new field is added; existing records get its default value, if it has one;
    /// - a field the version no longer has is removed, with its values (reserved fields stay);
    /// - an optional field that becomes required gets its default where records have none;
    /// - a changed `indexed` flag or fetch index changes the field's indexes.
    ///
    /// Refused (``RecordStoreError/migrationRefused(_:)``, listing every problem): a field whose
    /// type changes (but an INT64 widened to DOUBLE), a rename onto a name that stays in use, and,
    /// when the engine checks the records, a new required field without a default on a type that
    /// holds records or a field made required without a default that records lack.
    ///
    /// A store that remembers no model version (its schema was defined otherwise, or before
    /// stores remembered one) gets the additions only, as `Store.define` gives them.
    ///
    /// ```swift
    /// let migration = try model.migration(from: try await engine.catalog())
    /// print(migration.steps.count)
    /// ```
    @_spi(StorageEngine) public func migration(from catalog: SchemaCatalog) throws(RecordStoreError) -> SchemaMigration {
        var planner = MigrationPlanner(model: self, catalog: catalog)
        return try planner.plan()
    }
}

/// Computes a ``SchemaMigration``: the record types of a model version against a store's catalog.
private struct MigrationPlanner {
    let model: CoreDataModel
    let catalog: SchemaCatalog
    /// Whether the store remembers a model version: only then are fields renamed, removed and filled in.
    var migrating: Bool { catalog.modelVersion != nil }
    var problems: [MigrationProblem] = []
    var steps: [SchemaMigrationStep] = []

    init(model: CoreDataModel, catalog: SchemaCatalog) {
        self.model = model
        self.catalog = catalog
    }

    mutating func plan() throws(RecordStoreError) -> SchemaMigration {
        let targets = model.recordTypeSchemas()
        let targetNames = Set(targets.map(\.name))
        var migrations: [RecordTypeMigration] = []
        let sourceOf = MigrationSources.match(targets.map(\.name), stored: Set(catalog.recordTypes.keys)) { name in
            migrating ? model.entity(named: name)?.renamingIdentifier : nil
        }
        problems += sourceOf.takenTwice.map { .renamedTwice(recordType: $0.source, field: nil, to: $0.targets) }
        let sources = Set(sourceOf.sources.values)
        for target in targets {
            let source = sourceOf.sources[target.name]
            if let source, source != target.name {
                // The type's new name must be free once the renames are done: a stored type of
                // that name that no new type takes stays.
                if catalog.recordTypes[target.name] != nil, !sources.contains(target.name) {
                    problems.append(.nameTaken(recordType: source, field: nil, name: target.name))
                }
                steps.append(.renamedRecordType(from: source, to: target.name))
            }
            migrations.append(recordType(target, from: source.flatMap { catalog.recordTypes[$0] }))
        }
        if migrating {
            for name in catalog.declaredRecordTypes.sorted() where !sources.contains(name) && !targetNames.contains(name) {
                steps.append(.keptRecordType(name))
            }
        }
        guard problems.isEmpty else { throw .migrationRefused(problems) }
        return SchemaMigration(
            fromVersion: catalog.modelVersion, toVersion: ModelVersion(name: model.versionName, identifier: model.versionIdentifier),
            recordTypes: migrations, templates: model.fetchRequestTemplates.map(FetchRequestTemplate.init(coreData:)), steps: steps)
    }

    /// The `renamingIdentifier` of each attribute and relationship of an entity, inherited ones too, by name.
    private func renamingIdentifiers(of entity: String) -> [String: String] {
        var identifiers: [String: String] = [:]
        for attribute in model.attributes(of: entity) { identifiers[attribute.name] = attribute.renamingIdentifier }
        for relationship in model.relationships(of: entity) { identifiers[relationship.name] = relationship.renamingIdentifier }
        return identifiers
    }

    /// One record type's migration from its stored schema (nil: a new type).
    private mutating func recordType(_ target: RecordTypeSchema, from old: RecordTypeSchema?) -> RecordTypeMigration {
        var migration = RecordTypeMigration(source: old?.name, target: target)
        guard let old else {
            steps.append(.addedRecordType(target.name))
            return migration
        }
        let renaming = migrating ? renamingIdentifiers(of: target.name) : [:]
        let relationshipNames = Set(target.relationships.map(\.name))
        var matched: Set<String> = []
        // A stored field no new field takes is removed (before the renames run), so a new name
        // may be an old one's, and renames may chain or swap.
        let sourceOf = MigrationSources.match(target.fields.map(\.name), stored: Set(old.fields.map(\.name))) { renaming[$0] }
        problems += sourceOf.takenTwice.map { .renamedTwice(recordType: target.name, field: $0.source, to: $0.targets) }
        for field in target.fields {
            let oldName = sourceOf.sources[field.name]
            if let previous = oldName, previous != field.name {
                migration.renamedFields[previous] = field.name
                steps.append(relationshipNames.contains(field.name)
                    ? .renamedRelationship(recordType: target.name, from: previous, to: field.name)
                    : .renamedField(recordType: target.name, from: previous, to: field.name))
            }
            let defaultValue = field.validation?.defaultValue
            let isRequired = field.validation?.isRequired ?? false
            guard let oldName, let before = old.field(named: oldName) else {
                if migrating, let defaultValue { migration.filledDefaults[field.name] = defaultValue }
                if migrating, isRequired, defaultValue == nil { migration.mustBeEmpty.append(field.name) }
                steps.append(.addedField(recordType: target.name, field: field.name, filledWith: migrating ? defaultValue : nil))
                continue
            }
            matched.insert(oldName)
            if before.type != field.type, !before.isProvisional, SchemaCatalog.widening(before.type, field.type) == nil {
                problems.append(.typeChanged(recordType: target.name, field: field.name, from: before.type, to: field.type))
            }
            if migrating, isRequired, !(before.validation?.isRequired ?? false) {
                if let defaultValue { migration.filledDefaults[field.name] = defaultValue } else { migration.mustHaveValues.append(field.name) }
                steps.append(.requiredField(recordType: target.name, field: field.name, filledWith: defaultValue))
            }
            if before.indexDescription != field.indexDescription {
                steps.append(.changedIndexes(recordType: target.name, field: field.name, from: before.indexDescription, to: field.indexDescription))
            }
        }
        if migrating {
            for field in old.fields where !matched.contains(field.name) && !SchemaCatalog.reservedFieldNames.contains(field.name) {
                migration.removedFields.append(field.name)
                steps.append(.removedField(recordType: target.name, field: field.name))
            }
        }
        relationshipSteps(target, from: old, renaming: renaming)
        constraintSteps(target, from: old, renamedFields: migration.renamedFields)
        if old.parentType != target.parentType {
            steps.append(.changedParentType(recordType: target.name, from: old.parentType, to: target.parentType))
        }
        return migration
    }

    /// The uniqueness constraints added and removed, the stored ones under their fields' new names.
    private mutating func constraintSteps(_ target: RecordTypeSchema, from old: RecordTypeSchema, renamedFields: [String: String]) {
        let before = old.uniquenessConstraints.map { constraint in constraint.map { renamedFields[$0] ?? $0 } }
        for constraint in target.uniquenessConstraints where !before.contains(constraint) {
            steps.append(.addedConstraint(recordType: target.name, fields: constraint))
        }
        for constraint in before where !target.uniquenessConstraints.contains(constraint) {
            steps.append(.removedConstraint(recordType: target.name, fields: constraint))
        }
    }

    /// The steps of the relationships stored nowhere (inverse to-manys): those stored in a field
    /// are the field's steps.
    private mutating func relationshipSteps(_ target: RecordTypeSchema, from old: RecordTypeSchema, renaming: [String: String]) {
        let unstored = target.relationships.filter { $0.storedFieldType == nil }
        var kept: Set<String> = []
        for relationship in unstored {
            if old.relationship(named: relationship.name) != nil {
                kept.insert(relationship.name)
            } else if let previous = renaming[relationship.name], old.relationship(named: previous) != nil {
                kept.insert(previous)
                steps.append(.renamedRelationship(recordType: target.name, from: previous, to: relationship.name))
            } else {
                steps.append(.addedRelationship(recordType: target.name, relationship: relationship.name))
            }
        }
        guard migrating else { return }
        for relationship in old.relationships where relationship.storedFieldType == nil && !kept.contains(relationship.name) {
            steps.append(.removedRelationship(recordType: target.name, relationship: relationship.name))
        }
    }
}
