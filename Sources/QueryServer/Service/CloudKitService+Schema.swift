// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore

extension CloudKitService {
    /// This server's extension `schema`: every record type with its fields, their types and
    /// their indexes, by name.
    ///
    /// Record types belong to the store, so every namespace sees the same ones (as a CloudKit
    /// container's schema is shared by its databases). Each field has its CloudKit wire `type`
    /// (`STRING`, `INT64`, ..., `STRING_LIST`), the store's own `storeType` (`bool` is `INT64` on
    /// the wire) and its `indexes` (`queryable`, `sortable`, `searchable`).
    ///
    /// ```swift
    /// let answer = try await service.schema(in: Namespace(environment: .production, database: .public))
    /// // {"recordTypes": [{"recordType": "City", "fields": [{"fieldName": "name", "type": "STRING",
    /// //   "storeType": "string", "indexes": ["queryable", "sortable", "searchable"]}, ...]}]}
    /// ```
    public func schema(in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let types = try await run { () async throws(RecordStoreError) in try await store.schema() }
        return .object(["recordTypes": .array(types.map(Self.schemaJSON))])
    }

    /// The same schema as ``schema(in:)`` in CloudKit's schema language: what `GET schema?format=ckdb`
    /// answers as text (`document.ckdbText`), and what `query serve --schema` or
    /// `query schema apply` take back unchanged.
    ///
    /// ```swift
    /// let document = try await service.schemaDocument(in: Namespace(environment: .production, database: .public))
    /// print(document.ckdbText)
    /// // DEFINE SCHEMA
    /// //
    /// //     RECORD TYPE City (
    /// //         "___createTime" TIMESTAMP,
    /// //         ...
    /// ```
    public func schemaDocument(in namespace: Namespace) async throws(ServerError) -> CloudKitSchemaDocument {
        try await run { () async throws(RecordStoreError) in try await store.schemaDocument() }
    }

    /// One record type as the `schema` answer writes it.
    static func schemaJSON(_ recordType: RecordTypeSchema) -> JSONValue {
        .object([
            "recordType": .string(recordType.name),
            "fields": .array(recordType.fields.map { field in
                var indexes: [JSONValue] = []
                if field.isQueryable { indexes.append(.string("queryable")) }
                if field.isSortable { indexes.append(.string("sortable")) }
                if field.isSearchable { indexes.append(.string("searchable")) }
                return .object([
                    "fieldName": .string(field.name),
                    "type": .string(wireTypeName(field.type)),
                    "storeType": .string(field.type.description),
                    "indexes": .array(indexes),
                ])
            }),
        ])
    }

    /// The CloudKit wire type of a field type (`bool` travels as `INT64`).
    static func wireTypeName(_ type: FieldType) -> String {
        switch type {
        case .string: "STRING"
        case .int64, .bool: "INT64"
        case .double: "DOUBLE"
        case .date: "TIMESTAMP"
        case .bytes: "BYTES"
        case .location: "LOCATION"
        case .reference: "REFERENCE"
        case .list(let element): wireTypeName(element) + "_LIST"
        }
    }
}
#endif
