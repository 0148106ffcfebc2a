extension Store {
    /// Applies a Core Data model: defines its record types (``CoreDataModel/recordTypeSchemas()``:
    /// attributes with their indexes, and relationships) and its fetch request templates
    /// (``FetchRequestTemplate/init(coreData:)``). Everything is checked first, against the
    /// current schema, so nothing changes when a part cannot be applied (a field whose type would
    /// change, a template whose entity has no record type or whose predicate does not parse).
    ///
    /// Fetched properties are not applied. `progress` hears each index a PostgreSQL store builds
    /// on a table that holds records (``define(_:progress:)-5x8qf``).
    ///
    /// ```swift
    /// try store.apply(try CoreDataModelReader.read(at: "Company.xcdatamodeld"))
    /// ```
    public func apply(_ model: CoreDataModel, progress: StoreOpeningProgressHandler? = nil) throws(RecordStoreError) {
        try synchronously { try await self.apply(model, progress: progress) }
    }

    /// Applies a Core Data model (async); see the synchronous form.
    ///
    /// ```swift
    /// try await store.apply(try CoreDataModelReader.read(at: "Company.xcdatamodeld"))
    /// ```
    public func apply(_ model: CoreDataModel, progress: StoreOpeningProgressHandler? = nil) async throws(RecordStoreError) {
        try await define(
            recordTypes: model.recordTypeSchemas(), templates: model.fetchRequestTemplates.map(FetchRequestTemplate.init(coreData:)),
            progress: progress)
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
