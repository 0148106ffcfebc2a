extension SchemaCatalog {
    /// Moves a record type to what a migration makes of it before its target is defined
    /// (``RecordTypeMigration/restructured(_:)``): renamed with its fields, the removed fields
    /// gone, no indexes and no relationships. A rename carries the type's declaration, the
    /// templates that fetch it and the relationships that lead to it.
    ///
    /// ```swift
    /// catalog.restructure(RecordTypeMigration(source: "Ebook", target: digitalBook))
    /// catalog.recordTypes["DigitalBook"] != nil   // true
    /// ```
    @_spi(StorageEngine) public mutating func restructure(_ migration: RecordTypeMigration) {
        guard let source = migration.source, let old = recordTypes[source] else { return }
        let new = migration.target.name
        recordTypes[source] = nil
        recordTypes[new] = migration.restructured(old)
        guard source != new else { return }
        if declaredRecordTypes.remove(source) != nil { declaredRecordTypes.insert(new) }
        for (name, template) in fetchRequestTemplates where template.recordType == source {
            fetchRequestTemplates[name]?.recordType = new
        }
        for (name, schema) in recordTypes {
            for (index, relationship) in schema.relationships.enumerated() where relationship.destination == source {
                recordTypes[name]?.relationships[index].destination = new
            }
        }
    }
}
