/// What deploying one store's schema onto another's does, as CloudKit deploys a development
/// schema to production (`query schema deploy`): the target gains the source's record types,
/// fields, index types and relationships that it lacks, and nothing of its own is removed or
/// narrowed. A field both have with different types is a ``Conflict``: a field's type cannot
/// change (not even INT64 to DOUBLE), so a deployment with conflicts deploys nothing.
///
/// Types are compared as CloudKit's schema language has them: a `bool` field is an `INT64`
/// field, and a list field whose type was only guessed from empty lists takes the source's
/// list type.
///
/// ```swift
/// let deployment = SchemaDeployment(from: try await development.schema(), onto: try await production.schema())
/// for gain in deployment.gains { print(gain) }             // + field City.mayor STRING QUERYABLE SEARCHABLE
/// for conflict in deployment.conflicts { print(conflict) }
/// ```
public struct SchemaDeployment: Sendable, Hashable {
    /// One thing the target gains.
    public enum Gain: Sendable, Hashable, CustomStringConvertible {
        /// A record type the target lacks, with all its fields and relationships.
        case recordType(RecordTypeSchema)
        /// A field the target's record type lacks (or whose list type the target only guessed).
        case field(recordType: String, FieldSchema)
        /// Index types the target's field lacks: `QUERYABLE`, `SORTABLE`, `SEARCHABLE`.
        case indexes(recordType: String, field: String, [String])
        /// A relationship the target's record type lacks.
        case relationship(recordType: String, RelationshipSchema)

        /// `+ record type Note (title STRING QUERYABLE SEARCHABLE)`, `+ field City.mayor STRING`,
        /// `+ index City.name SORTABLE`, `+ relationship Department.employees -> Employee`.
        public var description: String {
            switch self {
            case .recordType(let schema):
                let fields = schema.fields.map(Self.describe).joined(separator: ", ")
                return "+ record type \(schema.name) (\(fields))"
            case .field(let recordType, let field):
                return "+ field \(recordType).\(Self.describe(field))"
            case .indexes(let recordType, let field, let indexes):
                return "+ index \(recordType).\(field) \(indexes.joined(separator: " "))"
            case .relationship(let recordType, let relationship):
                return "+ relationship \(recordType).\(relationship.name) -> \(relationship.destination)"
            }
        }

        /// `name STRING QUERYABLE SEARCHABLE`, as the schema language writes a field.
        static func describe(_ field: FieldSchema) -> String {
            ([field.name, CloudKitSchemaFieldType(storeType: field.type).description] + SchemaDeployment.indexNames(of: field)).joined(separator: " ")
        }
    }

    /// A field whose type the target cannot take.
    public struct Conflict: Sendable, Hashable, CustomStringConvertible {
        /// The record type.
        public let recordType: String
        /// The field.
        public let field: String
        /// The field's type in the target.
        public let targetType: FieldType
        /// The field's type in the source.
        public let sourceType: FieldType

        /// A conflict: `field` of `recordType` has `targetType` in the target, `sourceType` in the source.
        public init(recordType: String, field: String, targetType: FieldType, sourceType: FieldType) {
            self.recordType = recordType
            self.field = field
            self.targetType = targetType
            self.sourceType = sourceType
        }

        /// `City.population is INT64, and the deployed schema has DOUBLE: a field's type cannot change`.
        public var description: String {
            "\(recordType).\(field) is \(CloudKitSchemaFieldType(storeType: targetType)), and the deployed schema has "
                + "\(CloudKitSchemaFieldType(storeType: sourceType)): a field's type cannot change"
        }
    }

    /// What the target gains, by record type name, then fields in the source's order.
    public let gains: [Gain]
    /// The fields the target cannot take; when there is one, nothing is deployed.
    public let conflicts: [Conflict]
    /// The definitions that make the target gain what ``gains`` lists: one a record type that
    /// gains anything, holding only what it gains.
    let definitions: [RecordTypeSchema]

    /// The deployment of the record types `source` onto the record types `target`.
    public init(from source: [RecordTypeSchema], onto target: [RecordTypeSchema]) {
        var existing: [String: RecordTypeSchema] = [:]
        for recordType in target { existing[recordType.name] = recordType }
        var gains: [Gain] = []
        var conflicts: [Conflict] = []
        var definitions: [RecordTypeSchema] = []
        for recordType in source.sorted(by: { $0.name < $1.name }) {
            guard let current = existing[recordType.name] else {
                gains.append(.recordType(recordType))
                definitions.append(recordType)
                continue
            }
            var definition = RecordTypeSchema(name: recordType.name, justInTimeIndexes: current.justInTimeIndexes)
            for field in recordType.fields {
                guard let held = current.field(named: field.name) else {
                    gains.append(.field(recordType: recordType.name, field))
                    definition.fields.append(field)
                    continue
                }
                if CloudKitSchemaFieldType(storeType: held.type) != CloudKitSchemaFieldType(storeType: field.type) {
                    if held.isProvisional, held.type.isList, field.type.isList, !field.isProvisional {
                        gains.append(.field(recordType: recordType.name, field))
                        definition.fields.append(field)
                    } else if !(field.isProvisional && field.type.isList && held.type.isList) {
                        conflicts.append(Conflict(recordType: recordType.name, field: field.name, targetType: held.type, sourceType: field.type))
                    }
                    continue
                }
                var widened = held
                widened.isQueryable = held.isQueryable || field.isQueryable
                widened.isSortable = held.isSortable || field.isSortable
                widened.isSearchable = held.isSearchable || field.isSearchable
                let added = Self.indexNames(of: widened).filter { !Self.indexNames(of: held).contains($0) }
                if !added.isEmpty {
                    gains.append(.indexes(recordType: recordType.name, field: field.name, added))
                    definition.fields.append(widened)
                }
            }
            for relationship in recordType.relationships where current.relationship(named: relationship.name) == nil {
                gains.append(.relationship(recordType: recordType.name, relationship))
                definition.relationships.append(relationship)
            }
            if !definition.fields.isEmpty || !definition.relationships.isEmpty { definitions.append(definition) }
        }
        self.gains = gains
        self.conflicts = conflicts
        self.definitions = definitions
    }

    /// The index types a field has, as the schema language names them.
    static func indexNames(of field: FieldSchema) -> [String] {
        [field.isQueryable ? "QUERYABLE" : nil, field.isSortable ? "SORTABLE" : nil, field.isSearchable ? "SEARCHABLE" : nil].compactMap { $0 }
    }
}

extension Store {
    /// The deployment of `source`'s schema onto this store's (``SchemaDeployment``): what this
    /// store would gain, and the fields it cannot take.
    ///
    /// ```swift
    /// let deployment = try await production.deployment(from: development)
    /// ```
    public func deployment(from source: Store) async throws(RecordStoreError) -> SchemaDeployment {
        SchemaDeployment(from: try await source.schema(), onto: try await schema())
    }

    /// Deploys `source`'s schema onto this store's, in either mode: this store gains what
    /// ``deployment(from:)`` lists, in one schema change (its record types become declared, as
    /// a schema file's are). A deployment with conflicts is refused and changes nothing:
    /// ``RecordStoreError/typeMismatch(field:recordType:schemaType:valueType:)`` names the first.
    /// Returns the deployment made. `progress` hears each index a PostgreSQL store builds.
    ///
    /// ```swift
    /// let deployed = try await production.deploySchema(from: development)
    /// for gain in deployed.gains { print(gain) }
    /// ```
    @discardableResult
    public func deploySchema(from source: Store, progress: StoreOpeningProgressHandler? = nil) async throws(RecordStoreError) -> SchemaDeployment {
        let deployment = try await deployment(from: source)
        if let conflict = deployment.conflicts.first {
            throw .typeMismatch(field: conflict.field, recordType: conflict.recordType, schemaType: conflict.targetType,
                                valueType: "\(conflict.sourceType) (the deployed schema's)")
        }
        if !deployment.definitions.isEmpty { try await define(recordTypes: deployment.definitions, templates: [], progress: progress) }
        return deployment
    }
}
