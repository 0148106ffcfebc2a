extension CloudKitSchemaDocument {
    /// The record types applying this document defines in a store whose schema is `current`:
    /// each record type with its fields (system fields left out) as ``FieldSchema``s with the
    /// document's index flags. `TIMESTAMP` becomes `date`, `NUMBER PREFERRED AS INT64` `int64`;
    /// an `INT64` field that the store holds as `bool` stays `bool` (that is how a `bool` field
    /// exports).
    ///
    /// An `ASSET` field becomes a reference field (an ``Asset``'s value) without indexes. Refused,
    /// naming the record type, field and line: names the store does not allow, `ENCRYPTED` fields
    /// and `NUMBER` without `PREFERRED AS` (the store has no such types yet), and a field whose
    /// type would change.
    ///
    /// ```swift
    /// let planned = try document.storeSchemas(applyingTo: try store.schema())
    /// ```
    public func storeSchemas(applyingTo current: [RecordTypeSchema]) throws(SchemaLanguageError) -> [RecordTypeSchema] {
        var existing: [String: RecordTypeSchema] = [:]
        for recordType in current { existing[recordType.name] = recordType }
        var planned: [RecordTypeSchema] = []
        for recordType in recordTypes {
            do {
                try Identifier.checkRecordType(recordType.name)
            } catch {
                throw .notApplicable(recordType: recordType.name, field: nil, line: recordType.sourceLine, reason: error.description)
            }
            var fields: [FieldSchema] = []
            for field in recordType.userFields {
                func refuse(_ reason: String) -> SchemaLanguageError {
                    .notApplicable(recordType: recordType.name, field: field.name, line: field.sourceLine, reason: reason)
                }
                do {
                    try Identifier.checkField(field.name, recordType: recordType.name)
                } catch {
                    throw refuse(error.description)
                }
                guard var type = field.type.storeType else { throw refuse(Self.reasonForNoStoreType(field.type)) }
                if let old = existing[recordType.name]?.field(named: field.name), old.type != type {
                    if CloudKitSchemaFieldType(storeType: old.type).storeType == type {
                        type = old.type  // a bool field exported as INT64
                    } else if !(old.isProvisional && old.type.isList && type.isList) {
                        throw refuse("its type would change from \(CloudKitSchemaFieldType(storeType: old.type)) to \(field.type); a field's type cannot change")
                    }
                }
                fields.append(FieldSchema(
                    name: field.name, type: type, isQueryable: field.isQueryable, isSortable: field.isSortable,
                    isSearchable: field.isSearchable))
            }
            // A schema file says nothing of fields to come: the type keeps its just-in-time policy.
            planned.append(RecordTypeSchema(
                name: recordType.name, fields: fields, justInTimeIndexes: existing[recordType.name]?.justInTimeIndexes ?? .automatic))
        }
        return planned
    }

    /// Why a type has no store type.
    private static func reasonForNoStoreType(_ type: CloudKitSchemaFieldType) -> String {
        switch type {
        case .list(let element): reasonForNoStoreType(element)
        case .encrypted: "ENCRYPTED fields are not supported by the store yet (the document keeps and prints them, but cannot apply them)"
        case .number: "NUMBER without PREFERRED AS has no store type; write NUMBER PREFERRED AS INT64 or NUMBER PREFERRED AS DOUBLE"
        default: "\(type) has no store type"
        }
    }
}
