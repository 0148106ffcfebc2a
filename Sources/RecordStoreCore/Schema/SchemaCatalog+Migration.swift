extension SchemaCatalog {
    /// Moves record types to what a migration makes of them before their targets are defined
    /// (``RecordTypeMigration/restructured(_:)``): renamed with their fields, the removed fields
    /// gone, no indexes and no relationships. A rename carries the type's declaration, the
    /// templates that fetch it and the relationships that lead to it. The migrations move
    /// together, so that names may chain or swap (`A` → `B` while `B` → `C`).
    ///
    /// ```swift
    /// catalog.restructure([RecordTypeMigration(source: "Ebook", target: digitalBook)])
    /// catalog.recordTypes["DigitalBook"] != nil   // true
    /// ```
    @_spi(StorageEngine) public mutating func restructure(_ migrations: [RecordTypeMigration]) {
        var moved: [(migration: RecordTypeMigration, source: String, old: RecordTypeSchema)] = []
        for migration in migrations {
            guard let source = migration.source, let old = recordTypes[source] else { continue }
            moved.append((migration, source, old))
        }
        var newNames: [String: String] = [:]
        var declared: Set<String> = []
        for (_, source, _) in moved {
            recordTypes[source] = nil
            if declaredRecordTypes.remove(source) != nil { declared.insert(source) }
        }
        for (migration, source, old) in moved {
            let new = migration.target.name
            recordTypes[new] = migration.restructured(old)
            if declared.contains(source) { declaredRecordTypes.insert(new) }
            if source != new { newNames[source] = new }
        }
        guard !newNames.isEmpty else { return }
        for (name, template) in fetchRequestTemplates {
            if let new = newNames[template.recordType] { fetchRequestTemplates[name]?.recordType = new }
        }
        for (name, schema) in recordTypes {
            for (index, relationship) in schema.relationships.enumerated() {
                if let new = newNames[relationship.destination] { recordTypes[name]?.relationships[index].destination = new }
            }
        }
    }
}
