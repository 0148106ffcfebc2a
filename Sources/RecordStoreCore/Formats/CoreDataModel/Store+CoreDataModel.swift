extension Store {
    /// Applies a Core Data model: defines its record types (``CoreDataModel/recordTypeSchemas()``:
    /// attributes with their indexes, and relationships) and its fetch request templates
    /// (``FetchRequestTemplate/init(coreData:)``), and remembers the model's version.
    ///
    /// Applied to a store built from an earlier version, it migrates the store as Core Data's
    /// lightweight migration does (``SchemaMigration``): record types and fields renamed through
    /// `renamingIdentifier`, fields added and removed, optional fields made required with their
    /// default, indexes changed. Records keep their values, change tags and history, so change
    /// tokens issued before stay valid. Everything is checked first, so nothing changes when a
    /// part cannot be applied (a field whose type would change, a new required field without a
    /// default on a type that holds records, a template whose predicate does not parse): the
    /// error lists the reasons (``RecordStoreError/migrationRefused(_:)``).
    ///
    /// Fetched properties are not applied. `progress` hears each index a PostgreSQL store builds
    /// on a table that holds records (``define(_:progress:)-5x8qf``). Returns what was migrated.
    ///
    /// ```swift
    /// let migration = try store.apply(try CoreDataModelReader.read(at: "Company.xcdatamodeld"))
    /// print(migration)   // Company → Company 2: rename field Employee.name to fullName, …
    /// ```
    @discardableResult
    public func apply(_ model: CoreDataModel, progress: StoreOpeningProgressHandler? = nil) throws(RecordStoreError) -> SchemaMigration {
        try synchronously { try await self.apply(model, progress: progress) }
    }

    /// Applies a Core Data model, migrating the store from an earlier version (async); see the
    /// synchronous form.
    ///
    /// ```swift
    /// let migration = try await store.apply(try CoreDataModelReader.read(at: "Company.xcdatamodeld"))
    /// ```
    @discardableResult
    public func apply(_ model: CoreDataModel, progress: StoreOpeningProgressHandler? = nil) async throws(RecordStoreError) -> SchemaMigration {
        let migration = try model.migration(from: await engine.catalog())
        try await engine.migrate(migration, progress: progress)
        return migration
    }
}

extension CoreDataModel {
    /// The relationships of the model as `Entity.relationship`, entities and relationships in
    /// the order written.
    ///
    /// ```swift
    /// model.relationshipPaths   // ["Department.employees", "Employee.department", …]
    /// ```
    public var relationshipPaths: [String] {
        entities.flatMap { entity in entity.relationships.map { "\(entity.name).\($0.name)" } }
    }

    /// The `Transformable` attributes of the record types the model gives, as `Entity.attribute`:
    /// the store keeps their values as bytes it cannot look inside (only the attribute's
    /// `ValueTransformer` can decode them), which a caller should say.
    ///
    /// ```swift
    /// model.opaqueAttributePaths   // ["Employee.skills"]
    /// ```
    public var opaqueAttributePaths: [String] {
        entities.filter { !$0.isAbstract }.flatMap { entity in
            attributes(of: entity.name).filter { $0.isOpaqueBytes && !$0.isTransient }.map { "\(entity.name).\($0.name)" }
        }
    }
}
