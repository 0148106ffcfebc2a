import GRDB
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

extension SQLiteSchemaStorage {
    /// Defines record types, then templates, on the transaction's catalog: each type's columns
    /// and indexes as its changes ask (filled on a populated table, the full text rebuilt when
    /// the searchable fields change, what the new flags no longer ask for dropped). The caller
    /// checks the relationships and saves the catalog.
    ///
    /// ```swift
    /// try storage.define([city], templates: [], catalog: &catalog, db)
    /// ```
    func define(_ recordTypes: [RecordTypeSchema], templates: [FetchRequestTemplate], catalog: inout SchemaCatalog, _ db: Database) throws {
        for schema in recordTypes {
            let before = catalog.recordTypes[schema.name]
            let changes = try catalog.define(schema)
            try apply(changes, catalog: catalog, db)
            if let updated = catalog.recordTypes[schema.name] {
                try ensureIndexes(updated, db)
                if let before, before.searchableFieldNames != updated.searchableFieldNames {
                    try SQLiteRecordWriter(db: db, catalog: catalog).rebuildFullText(updated)
                }
                if let before { try SQLiteIndexChanges(db: db).apply(from: before, to: updated) }
            }
        }
        for template in templates { try catalog.define(template) }
    }
}
