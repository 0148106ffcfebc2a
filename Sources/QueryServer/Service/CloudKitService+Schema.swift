// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore
@_spi(StorageEngine) import RecordStoreCore

extension CloudKitService {
    /// This server's extension `schema`: the namespace's record types with their fields, their
    /// types and their indexes, by name.
    ///
    /// Each environment has its own schema (its own store). A database lists the record types
    /// its environment's schema declares (a `.ckdb` file or Core Data model applied, a
    /// deployment), and those that saves created which hold records in the environment's public
    /// database, or, for a private database, in that database: a type that saves created only in
    /// one key's private database is not shown to others. Each
    /// field has its CloudKit wire `type` (`STRING`, `INT64`, ..., `STRING_LIST`), the store's own
    /// `storeType` (`bool` is `INT64` on the wire) and its `indexes` (`queryable`, `sortable`,
    /// `searchable`). A type with relationships (a Core Data model's, or declared in Swift) also
    /// has `relationships`, each with its `name`, `destination` type, `kind` (`toOne`, stored in
    /// the `REFERENCE` field of its name; `toMany`, the destination's records whose `inverse`
    /// field references the record; `referenceList`, stored in the `REFERENCE_LIST` field of its
    /// name) and `deletionRule` (`nullify`, `cascade`, `deny`, `noAction`).
    ///
    /// ```swift
    /// let answer = try await service.schema(in: Namespace(environment: .production, database: .public))
    /// // {"recordTypes": [{"recordType": "City", "fields": [{"fieldName": "name", "type": "STRING",
    /// //   "storeType": "string", "indexes": ["queryable", "sortable", "searchable"]}, ...]},
    /// //  {"recordType": "Department", "fields": [...], "relationships": [{"name": "employees",
    /// //   "destination": "Employee", "kind": "toMany", "inverse": "department", "deletionRule": "cascade"}]}]}
    /// ```
    public func schema(in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let types = try await visibleRecordTypes(in: namespace)
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
        CloudKitSchemaDocument(storeSchema: try await visibleRecordTypes(in: namespace))
    }

    /// The record types a namespace's schema answers list, by name: those its environment's
    /// schema declares, and those with records in the environment's public zones or in the
    /// namespace's own zones (a shared database's: the zones shared with its user). The store's and the server's own record types (``SystemRecordTypes``:
    /// the security policy, users, sessions, sign-ins, subscriptions) are never listed.
    func visibleRecordTypes(in namespace: Namespace) async throws(ServerError) -> [RecordTypeSchema] {
        let store = try await bookkeepingStore(for: namespace.environment)
        let (catalog, zones) = try await run { () async throws(RecordStoreError) in (try await store.engine.catalog(), try await store.zones()) }
        let publicDatabase = Namespace(environment: namespace.environment, database: .public)
        var searched = zones.filter { publicDatabase.clientZoneName($0) != nil || namespace.clientZoneName($0) != nil }
        // A shared database's zones are other users': those shared with its user.
        if namespace.sharedDatabaseUser != nil { searched += try await sharedZones(in: namespace).map(\.zone) }
        var visible: [RecordTypeSchema] = []
        for recordType in catalog.sorted where !SystemRecordTypes.contains(recordType.name) {
            if catalog.declaredRecordTypes.contains(recordType.name) {
                visible.append(recordType)
            } else if try await hasRecords(of: recordType.name, in: searched, store: store) {
                visible.append(recordType)
            }
        }
        return visible
    }

    /// Whether any of the zones holds a record of the type (one record read a zone at most).
    private func hasRecords(of recordType: String, in zones: [ZoneID], store: Store) async throws(ServerError) -> Bool {
        for zone in zones {
            let found = try await run { () async throws(RecordStoreError) -> Bool in
                do throws(RecordStoreError) {
                    return try await !store.records(ofType: recordType, matching: .truePredicate, zone: zone, limit: 1).isEmpty
                } catch .zoneNotFound, .unknownRecordType {
                    return false  // deleted meanwhile
                }
            }
            if found { return true }
        }
        return false
    }

    /// One record type as the `schema` answer writes it.
    static func schemaJSON(_ recordType: RecordTypeSchema) -> JSONValue {
        var members: [String: JSONValue] = [
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
        ]
        if !recordType.relationships.isEmpty { members["relationships"] = .array(recordType.relationships.map(relationshipJSON)) }
        return .object(members)
    }

    /// One relationship as the `schema` answer writes it.
    static func relationshipJSON(_ relationship: RelationshipSchema) -> JSONValue {
        var members: [String: JSONValue] = [
            "name": .string(relationship.name), "destination": .string(relationship.destination),
            "deletionRule": .string(relationship.deletionRule.rawValue),
        ]
        switch relationship.kind {
        case .toOne: members["kind"] = .string("toOne")
        case .toMany(let inverse):
            members["kind"] = .string("toMany")
            members["inverse"] = .string(inverse)
        case .referenceList: members["kind"] = .string("referenceList")
        }
        return .object(members)
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
