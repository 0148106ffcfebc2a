extension CoreDataModel {
    /// The store's record types for this model's attributes: one per entity that is not abstract,
    /// named as the entity, with a field for each stored attribute, inherited ones first (see
    /// ``attributes(of:)``). Each field has the type that keeps the attribute's values
    /// (``CoreDataAttributeType/storeType``); one that Core Data indexes (`indexed="YES"`, or a
    /// property of a fetch index of the entity or a parent) is `QUERYABLE` and `SORTABLE` (as
    /// far as its type sorts), the others have no index.
    ///
    /// Not mapped: transient attributes (never stored), relationships and fetched properties
    /// (kept in the model only, until the schema has relationships), uniqueness constraints,
    /// validation settings and default values (the store does not enforce them).
    ///
    /// ```swift
    /// let model = try CoreDataModelReader.read(at: "Company.xcdatamodeld")
    /// for recordType in model.recordTypeSchemas() {
    ///     try store.define(recordType)
    /// }
    /// ```
    public func recordTypeSchemas() -> [RecordTypeSchema] {
        entities.filter { !$0.isAbstract }.map { entity in
            let lineage = lineage(of: entity.name)
            let indexed = Set(lineage.flatMap { $0.fetchIndexes.flatMap { $0.elements.map(\.property) } })
            let fields: [FieldSchema] = attributes(of: entity.name).compactMap { attribute in
                guard !attribute.isTransient, let type = attribute.type.storeType else { return nil }
                let isIndexed = attribute.isIndexed || indexed.contains(attribute.name)
                return FieldSchema(name: attribute.name, type: type, isQueryable: isIndexed, isSortable: isIndexed)
            }
            return RecordTypeSchema(name: entity.name, fields: fields)
        }
    }
}
