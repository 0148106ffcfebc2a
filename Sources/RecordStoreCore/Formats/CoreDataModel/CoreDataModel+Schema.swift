extension CoreDataModel {
    /// The store's record types for this model's attributes: one per entity, named as the
    /// entity, with a field for each stored attribute, inherited ones first (see
    /// ``attributes(of:)``), its parent entity as ``RecordTypeSchema/parentType`` and its
    /// abstractness as ``RecordTypeSchema/isAbstract`` (a fetch of an entity returns its
    /// sub-entities' records; an abstract entity's records cannot be saved). Each field has the type that keeps the attribute's values
    /// (``CoreDataAttributeType/storeType``); one that Core Data indexes (`indexed="YES"`, or a
    /// property of a fetch index of the entity or a parent) is `QUERYABLE` and `SORTABLE` (as
    /// far as its type sorts), the others have no index.
    ///
    /// Each field carries its attribute's validation settings and default value
    /// (``CoreDataAttribute/fieldValidation``), which saves then follow.
    ///
    /// Relationships, inherited ones included, become ``RelationshipSchema``s
    /// (``relationshipSchema(_:of:)``). Not mapped: transient attributes and relationships (never
    /// stored) and fetched properties (kept in the model only).
    ///
    /// Uniqueness constraints, the entity's and its parents' (a sub-entity inherits them), become
    /// ``RecordTypeSchema/uniquenessConstraints``, each enforced among the records of one record
    /// type in one zone (a parent's constraint does not reach across its sub-entities' types).
    /// A constraint naming a property that is not stored as a field is left out.
    ///
    /// ```swift
    /// let model = try CoreDataModelReader.read(at: "Company.xcdatamodeld")
    /// for recordType in model.recordTypeSchemas() {
    ///     try store.define(recordType)
    /// }
    /// ```
    public func recordTypeSchemas() -> [RecordTypeSchema] {
        entities.map { entity in
            let lineage = lineage(of: entity.name)
            let indexed = Set(lineage.flatMap { $0.fetchIndexes.flatMap { $0.elements.map(\.property) } })
            let fields: [FieldSchema] = attributes(of: entity.name).compactMap { attribute in
                guard !attribute.isTransient, let type = attribute.type.storeType else { return nil }
                let isIndexed = attribute.isIndexed || indexed.contains(attribute.name)
                return FieldSchema(
                    name: attribute.name, type: type, isQueryable: isIndexed, isSortable: isIndexed, validation: attribute.fieldValidation)
            }
            let relationships = relationships(of: entity.name).filter { !$0.isTransient }.map { relationshipSchema($0, of: entity.name) }
            // A to-one or a reference list is stored in a field of its name, indexed for walks and inverses.
            let referenceFields = relationships.compactMap { relationship in
                relationship.storedFieldType.map { FieldSchema(name: relationship.name, type: $0, isQueryable: true, isSortable: false) }
            }
            let stored = Set((fields + referenceFields).map(\.name))
            var constraints: [[String]] = []
            for constraint in lineage.reversed().flatMap(\.uniquenessConstraints)
            where !constraint.isEmpty && constraint.allSatisfy(stored.contains) && !constraints.contains(constraint) {
                constraints.append(constraint)
            }
            return RecordTypeSchema(
                name: entity.name, fields: fields + referenceFields, relationships: relationships, parentType: entity.parentEntity,
                isAbstract: entity.isAbstract, uniquenessConstraints: constraints)
        }
    }

    /// The store's relationship for a Core Data relationship of an entity:
    /// - a to-one is stored in a `REFERENCE` field of its name;
    /// - a to-many whose inverse is a to-one is that reference's inverse, stored nowhere;
    /// - a many-to-many is stored on one side, the entity whose name (then relationship name)
    ///   sorts first, as a `LIST<REFERENCE>`, and is the inverse of that list on the other;
    /// - a to-many without an inverse is a `LIST<REFERENCE>` of its own.
    ///
    /// ```swift
    /// model.relationshipSchema(employees, of: "Department").kind   // .toMany(inverse: "department")
    /// ```
    public func relationshipSchema(_ relationship: CoreDataRelationship, of entityName: String) -> RelationshipSchema {
        let rule: DeletionRule =
            switch relationship.deletionRule {
            case .nullify: .nullify
            case .cascade: .cascade
            case .deny: .deny
            case .noAction: .noAction
            }
        let kind: RelationshipSchema.Kind
        if !relationship.isToMany {
            kind = .toOne
        } else if let inverseName = relationship.inverseName,
                  let inverse = relationships(of: relationship.destinationEntity).first(where: { $0.name == inverseName }) {
            if !inverse.isToMany {
                kind = .toMany(inverse: inverseName)
            } else if (entityName, relationship.name) < (relationship.destinationEntity, inverseName) {
                kind = .referenceList
            } else {
                kind = .toMany(inverse: inverseName)
            }
        } else {
            kind = .referenceList
        }
        return RelationshipSchema(
            name: relationship.name, destination: relationship.destinationEntity, kind: kind, deletionRule: rule,
            // A to-one's counts (at most one) say nothing the kind does not.
            isOrdered: relationship.isOrdered, minimumCount: relationship.isToMany ? relationship.minCount : nil,
            maximumCount: relationship.isToMany ? relationship.maxCount : nil, isRequired: !relationship.isOptional)
    }
}
