// Part of the Server trait: without it, this module is empty.
#if Server
import RecordStore
@_spi(StorageEngine) import RecordStoreCore

extension CloudKitService {
    /// `schema/fields/add`: adds a field to a record type of the development schema, or index
    /// types to one of its fields, and answers the `SchemaPlan` (with `"dryRun": true`, only the
    /// plan). What changes is decided as a deployment decides it (`SchemaDeployment`): a field
    /// the type lacks is added with the index types asked for, a field it has gains the index
    /// types it lacks, and a field whose type would change is refused (`BAD_REQUEST`, nothing
    /// changed). The request names the development environment; production's schema changes
    /// only by `schema/deploy` (`BAD_REQUEST`).
    ///
    /// ```swift
    /// let plan = try await service.addSchemaField(
    ///     ["recordType": "City", "fieldName": "mayor", "type": "STRING", "indexes": ["queryable"]],
    ///     in: Namespace(environment: .development, database: .public))
    /// // {"environment": "development", "dryRun": false, "changes": ["+ field City.mayor STRING QUERYABLE"], "refused": []}
    /// ```
    public func addSchemaField(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let request = try RequestBodyDecoder.decode(SchemaChangeRequest.self, from: body)
        let (store, current) = try await developmentRecordType(request.recordType, in: namespace)
        let held = current.field(named: request.fieldName)
        let given = try request.typeName.map { (name) throws(ServerError) -> FieldType in
            guard let type = Self.fieldType(wireName: name) else {
                throw ServerError(.badRequest, "'\(name)' is not a field type: one of \(Self.fieldWireNames.joined(separator: ", "))")
            }
            return type
        }
        guard let type = given ?? held?.type else {
            throw ServerError(.badRequest, "type is missing: \(request.recordType) has no field '\(request.fieldName)' yet, so give its type (one of \(Self.fieldWireNames.joined(separator: ", ")))")
        }
        try Self.checkFieldName(request.fieldName, recordType: request.recordType)
        var asked = FieldSchema(name: request.fieldName, type: type, isQueryable: false, isSortable: false)
        for index in request.indexes { index.set(true, on: &asked) }
        let deployment = SchemaDeployment(from: [RecordTypeSchema(name: current.name, fields: [asked])], onto: [current])
        let plan = SchemaPlan(environment: .development, dryRun: request.dryRun, deployment: deployment)
        guard !request.dryRun else { return plan.json }
        try plan.checkNothingRefused()
        guard !plan.changes.isEmpty else { return plan.json }
        var field = held ?? asked
        if held != nil { for index in request.indexes { index.set(true, on: &field) } }
        try await define(field, of: current, in: store)
        return plan.json
    }

    /// `schema/indexes/remove`: takes index types (`queryable`, `sortable`, `searchable`) from a
    /// field of a record type of the development schema, and answers the `SchemaPlan` (`-
    /// index City.name SORTABLE`; with `"dryRun": true`, only the plan). Index types the field
    /// does not have change nothing. In development a query that needed the index still
    /// answers, by a scan. Production's schema changes only by `schema/deploy` (`BAD_REQUEST`).
    ///
    /// ```swift
    /// let plan = try await service.removeSchemaIndexes(["recordType": "City", "fieldName": "name", "indexes": ["sortable"]], in: namespace)
    /// // {"environment": "development", "dryRun": false, "changes": ["- index City.name SORTABLE"], "refused": []}
    /// ```
    public func removeSchemaIndexes(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let request = try RequestBodyDecoder.decode(SchemaChangeRequest.self, from: body)
        let (store, current) = try await developmentRecordType(request.recordType, in: namespace)
        guard var field = current.field(named: request.fieldName) else {
            throw ServerError(.badRequest, "\(request.recordType) has no field '\(request.fieldName)' in the development schema")
        }
        let removed = SchemaIndexType.allCases.filter { request.indexes.contains($0) && $0.isSet(on: field) }
        let changes = removed.isEmpty ? [] : ["- index \(current.name).\(field.name) " + removed.map(\.schemaLanguageName).joined(separator: " ")]
        let plan = SchemaPlan(environment: .development, dryRun: request.dryRun, changes: changes)
        guard !request.dryRun, !removed.isEmpty else { return plan.json }
        for index in removed { index.set(false, on: &field) }
        try await define(field, of: current, in: store)
        return plan.json
    }

    /// `schema/deploy`: deploys the development schema to production, as `query schema deploy`
    /// does (`Store.deploySchema(from:progress:)`), and answers the `SchemaPlan` of
    /// production: what it gains, and the fields it refuses (a field's type cannot change; then
    /// nothing is deployed, `BAD_REQUEST`). Nothing of production's is removed. With `"dryRun":
    /// true`, only the plan. The request names the development environment.
    ///
    /// ```swift
    /// let plan = try await service.deploySchema(["dryRun": true], in: Namespace(environment: .development, database: .public))
    /// // {"environment": "production", "dryRun": true, "changes": ["+ field City.mayor STRING QUERYABLE"], "refused": []}
    /// ```
    public func deploySchema(_ body: JSONValue, in namespace: Namespace) async throws(ServerError) -> JSONValue {
        let request = try RequestBodyDecoder.decode(SchemaPlanRequest.self, from: body)
        let development = try await developmentSchemaStore(for: namespace)
        let production = store
        let deployment = try await run { () async throws(RecordStoreError) in try await production.deployment(from: development) }
        let plan = SchemaPlan(environment: .production, dryRun: request.dryRun, deployment: deployment)
        guard !request.dryRun else { return plan.json }
        try plan.checkNothingRefused()
        let deployed = try await run { () async throws(RecordStoreError) in try await production.deploySchema(from: development) }
        return SchemaPlan(environment: .production, dryRun: false, deployment: deployed).json
    }

    /// The development store, for a request that names the development environment
    /// (`BAD_REQUEST` for production's, whose schema changes only by a deployment).
    private func developmentSchemaStore(for namespace: Namespace) async throws(ServerError) -> Store {
        guard namespace.environment == .development else {
            throw ServerError(.badRequest, "the schema is administered in the development environment: production's changes only by deploying development's (schema/deploy)")
        }
        return try await bookkeepingStore(for: .development)
    }

    /// The development store and its schema of a record type (`BAD_REQUEST` when it has none).
    private func developmentRecordType(_ name: String, in namespace: Namespace) async throws(ServerError) -> (Store, RecordTypeSchema) {
        let store = try await developmentSchemaStore(for: namespace)
        let current = try await run { () async throws(RecordStoreError) in try await store.schema(for: name) }
        guard let current, !SystemRecordTypes.contains(name) else {
            throw ServerError(.badRequest, "the development schema has no record type '\(name)'")
        }
        return (store, current)
    }

    /// Defines one field of a record type as given, the type's other fields and its
    /// just-in-time indexes as they are.
    private func define(_ field: FieldSchema, of recordType: RecordTypeSchema, in store: Store) async throws(ServerError) {
        let definition = RecordTypeSchema(name: recordType.name, fields: [field], justInTimeIndexes: recordType.justInTimeIndexes)
        try await run { () async throws(RecordStoreError) in try await store.define(definition) }
    }

    /// The store types a field can be given, by their wire names (``wireTypeName(_:)``: `bool`
    /// travels as `INT64`, so it is not among them).
    private static let fieldTypes: [FieldType] = {
        let scalars: [FieldType] = [.string, .int64, .double, .date, .bytes, .location, .reference]
        return scalars + scalars.map { FieldType.list($0) }
    }()

    /// The wire names a request may give a field's type by, as the `schema` route writes them.
    static let fieldWireNames = fieldTypes.map(wireTypeName)

    /// The store type of a wire name (`STRING_LIST`: a list of strings), or nil.
    static func fieldType(wireName: String) -> FieldType? {
        fieldTypes.first { wireTypeName($0) == wireName }
    }

    /// Throws `BAD_REQUEST` for a name the schema cannot give a field.
    private static func checkFieldName(_ name: String, recordType: String) throws(ServerError) {
        do {
            try Identifier.checkField(name, recordType: recordType)
        } catch {
            throw serverError(error)
        }
    }
}
#endif
