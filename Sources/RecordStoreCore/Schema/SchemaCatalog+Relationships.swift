extension SchemaCatalog {
    /// Merges a type's relationships into its schema (``define(_:)``): each replaces the one of
    /// its name, and a to-one or a reference list gains its field (`REFERENCE` or
    /// `LIST<REFERENCE>`, queryable, so that walks and inverses seek an index) when the type has
    /// none. Checks what needs only this type; ``checkRelationships()`` checks the rest.
    mutating func mergeRelationships(
        _ relationships: [RelationshipSchema], into merged: inout RecordTypeSchema, changes: inout [SchemaChange]
    ) throws(RecordStoreError) {
        for relationship in relationships {
            try Identifier.checkField(relationship.name, recordType: merged.name)
            let existingField = merged.field(named: relationship.name)
            if let storedType = relationship.storedFieldType {
                if let existingField {
                    guard existingField.type == storedType || existingField.isProvisional else {
                        throw .invalidRelationship(
                            relationship.name, recordType: merged.name,
                            reason: "its field '\(relationship.name)' has type \(existingField.type), and a \(relationship.kindDescription) relationship needs \(storedType)")
                    }
                } else {
                    let field = FieldSchema(name: relationship.name, type: storedType, isQueryable: true, isSortable: false)
                    merged.fields.append(field)
                    changes.append(.addedField(recordType: merged.name, field))
                }
            } else if let existingField {
                throw .invalidRelationship(
                    relationship.name, recordType: merged.name,
                    reason: "the type has a field '\(relationship.name)' of type \(existingField.type), and an inverse to-many stores nothing on its type")
            }
            if let position = merged.relationships.firstIndex(where: { $0.name == relationship.name }) {
                merged.relationships[position] = relationship
            } else {
                merged.relationships.append(relationship)
            }
        }
    }

    /// Checks every relationship against the whole catalog: its destination exists, and an
    /// inverse to-many names a reference (or reference list) field of the destination that, when
    /// the destination declares it a relationship, leads back to this type. ``Store`` runs it after
    /// each schema change, which may define several types at once (two types whose relationships
    /// name each other are defined together).
    ///
    /// ```swift
    /// try catalog.checkRelationships()   // RecordStoreError.invalidRelationship(...)
    /// ```
    @_spi(StorageEngine) public func checkRelationships() throws(RecordStoreError) {
        for recordType in sorted {
            for relationship in recordType.relationships {
                guard let destination = recordTypes[relationship.destination] else {
                    throw .invalidRelationship(
                        relationship.name, recordType: recordType.name,
                        reason: "its destination '\(relationship.destination)' is not a record type of the store "
                            + "(define the types of a relationship together: store.define([first, second]))")
                }
                guard case .toMany(let inverse) = relationship.kind else { continue }
                guard let field = destination.field(named: inverse), field.type == .reference || field.type == .list(.reference) else {
                    throw .invalidRelationship(
                        relationship.name, recordType: recordType.name,
                        reason: "its inverse '\(inverse)' is not a reference or reference list field of '\(destination.name)'")
                }
                if let declared = destination.relationship(named: inverse), declared.destination != recordType.name {
                    throw .invalidRelationship(
                        relationship.name, recordType: recordType.name,
                        reason: "its inverse '\(destination.name).\(inverse)' leads to '\(declared.destination)', not back to '\(recordType.name)'")
                }
            }
        }
    }

    /// The relationship or reference a key path component names on a record type: a declared
    /// relationship, or a `REFERENCE` or `LIST<REFERENCE>` field without one (whose destination
    /// is whatever type the referenced record has). Nil for anything else.
    @_spi(StorageEngine) public func walkableRelationship(_ name: String, of recordType: String) -> RelationshipSchema? {
        guard let schema = recordTypes[recordType] else { return nil }
        if let relationship = schema.relationship(named: name) { return relationship }
        return schema.field(named: name).flatMap(Self.undeclaredRelationship)
    }

    /// Every ``walkableRelationship(_:of:)`` of every record type, by type and name: what a walk
    /// over many records looks up once.
    @_spi(StorageEngine) public var walkableRelationships: [String: [String: RelationshipSchema]] {
        recordTypes.mapValues { schema in
            var walkable: [String: RelationshipSchema] = [:]
            for field in schema.fields { walkable[field.name] = Self.undeclaredRelationship(field) }
            for relationship in schema.relationships { walkable[relationship.name] = relationship }
            return walkable
        }
    }

    /// A reference or reference list field walked without a declared relationship.
    private static func undeclaredRelationship(_ field: FieldSchema) -> RelationshipSchema? {
        switch field.type {
        case .reference: RelationshipSchema(name: field.name, destination: "", kind: .toOne, deletionRule: .noAction)
        case .list(.reference): RelationshipSchema(name: field.name, destination: "", kind: .referenceList, deletionRule: .noAction)
        default: nil
        }
    }
}
