extension SchemaLimits {
    /// Checks the schema changes of one save against the bounds: `changes` are what the save
    /// makes, `catalog` the catalog once they are made.
    ///
    /// ```swift
    /// let changes = try catalog.admit(&records, mode: .development)
    /// try SchemaLimits.server.check(changes, catalog: catalog)
    /// ```
    @_spi(StorageEngine) public func check(_ changes: [SchemaChange], catalog: SchemaCatalog) throws(RecordStoreError) {
        guard !changes.isEmpty else { return }
        if changes.count > changesPerSave {
            throw .schemaLimitExceeded(.changesPerSave, recordType: nil, count: changes.count, limit: changesPerSave)
        }
        var grown: Set<String> = []
        var addsRecordType = false
        for change in changes {
            switch change {
            case .addedRecordType(let name):
                addsRecordType = true
                grown.insert(name)
            case .addedField(let name, _):
                grown.insert(name)
            case .changedFieldType:
                break
            }
        }
        if addsRecordType, catalog.recordTypes.count > recordTypes {
            throw .schemaLimitExceeded(.recordTypes, recordType: nil, count: catalog.recordTypes.count, limit: recordTypes)
        }
        for name in grown.sorted() {
            let fields = catalog.recordTypes[name]?.fields.count ?? 0
            if fields > fieldsPerRecordType {
                throw .schemaLimitExceeded(.fieldsPerRecordType, recordType: name, count: fields, limit: fieldsPerRecordType)
            }
        }
    }
}
