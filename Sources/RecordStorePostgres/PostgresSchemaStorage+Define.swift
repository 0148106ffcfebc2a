// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

extension PostgresSchemaStorage {
    /// Defines record types, then templates, on the transaction's catalog: each type's columns,
    /// fills and indexes as its changes ask (those of a populated table marked pending when
    /// ``buildsPopulatedTablesLater``), the full text rebuilt when the searchable fields change,
    /// and what the new flags no longer ask for dropped. The caller checks the relationships and
    /// saves the catalog.
    ///
    /// ```swift
    /// try await storage.define([city], templates: [], catalog: &catalog)
    /// ```
    func define(_ recordTypes: [RecordTypeSchema], templates: [FetchRequestTemplate], catalog: inout SchemaCatalog) async throws {
        for schema in recordTypes {
            let before = catalog.recordTypes[schema.name]
            let changes = try catalog.define(schema)
            try await apply(changes, catalog: catalog)
            if let updated = catalog.recordTypes[schema.name] {
                try await ensureIndexes(updated)
                if let before, before.searchableFieldNames != updated.searchableFieldNames { try await rebuildFullText(updated) }
                if let before { try await applyIndexChanges(from: before, to: updated) }
            }
        }
        for template in templates { try catalog.define(template) }
    }
}
#endif
