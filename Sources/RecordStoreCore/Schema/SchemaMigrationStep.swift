/// One step of a ``SchemaMigration``, as ``SchemaMigration/description`` lists it.
///
/// ```swift
/// SchemaMigrationStep.renamedField(recordType: "Book", from: "name", to: "title").description
/// // rename field Book.name to title
/// ```
public enum SchemaMigrationStep: Sendable, Hashable, CustomStringConvertible {
    /// A record type new to the store.
    case addedRecordType(String)
    /// A record type renamed (an entity's `renamingIdentifier`): its records, change tags and
    /// history are kept under the new name.
    case renamedRecordType(from: String, to: String)
    /// A field new to a record type; existing records get `filledWith` when the field has a
    /// default value.
    case addedField(recordType: String, field: String, filledWith: FieldDefaultValue?)
    /// A field renamed (a property's `renamingIdentifier`), its values kept.
    case renamedField(recordType: String, from: String, to: String)
    /// A field no longer in the model: its values are dropped.
    case removedField(recordType: String, field: String)
    /// An optional field becomes required; records without a value get `filledWith`, the
    /// default value (without one, every record must hold a value).
    case requiredField(recordType: String, field: String, filledWith: FieldDefaultValue?)
    /// A field's indexes change (`indexed`, a fetch index): `from` and `to` as
    /// ``FieldSchema/indexDescription`` words.
    case changedIndexes(recordType: String, field: String, from: String, to: String)
    /// A relationship stored nowhere (an inverse to-many) added; one stored in a field is an
    /// ``addedField(recordType:field:filledWith:)``.
    case addedRelationship(recordType: String, relationship: String)
    /// A relationship stored nowhere removed; one stored in a field is a
    /// ``removedField(recordType:field:)``.
    case removedRelationship(recordType: String, relationship: String)
    /// A relationship renamed (`renamingIdentifier`), its field and values with it when it has one.
    case renamedRelationship(recordType: String, from: String, to: String)
    /// A record type the new version has no entity for: kept as it is, with its records.
    case keptRecordType(String)
    /// A uniqueness constraint new to a record type (its fields in order), enforced from now on;
    /// a migration whose stored records break it is refused
    /// (``MigrationProblem/constraintBroken(recordType:constraint:)``).
    case addedConstraint(recordType: String, fields: [String])
    /// A uniqueness constraint no longer in the model: records may share its values from now on.
    case removedConstraint(recordType: String, fields: [String])
    /// A record type's parent entity changes (nil: a root entity). Its records stay in it; queries
    /// on the old parent no longer return them, queries on the new one do.
    case changedParentType(recordType: String, from: String?, to: String?)

    public var description: String {
        func words(_ flags: String) -> String { flags.isEmpty ? "none" : flags }
        switch self {
        case .addedRecordType(let type): return "add record type \(type)"
        case .renamedRecordType(let from, let to): return "rename record type \(from) to \(to)"
        case .addedField(let type, let field, let value?): return "add field \(type).\(field), existing records get \(value)"
        case .addedField(let type, let field, nil): return "add field \(type).\(field)"
        case .renamedField(let type, let from, let to): return "rename field \(type).\(from) to \(to)"
        case .removedField(let type, let field): return "remove field \(type).\(field) and its values"
        case .requiredField(let type, let field, let value?): return "make \(type).\(field) required, records without a value get \(value)"
        case .requiredField(let type, let field, nil): return "make \(type).\(field) required"
        case .changedIndexes(let type, let field, let from, let to): return "change the indexes of \(type).\(field) from \(words(from)) to \(words(to))"
        case .addedRelationship(let type, let name): return "add relationship \(type).\(name)"
        case .removedRelationship(let type, let name): return "remove relationship \(type).\(name)"
        case .renamedRelationship(let type, let from, let to): return "rename relationship \(type).\(from) to \(to)"
        case .keptRecordType(let type): return "keep record type \(type) (no entity of the new version), with its records"
        case .addedConstraint(let type, let fields): return "add the uniqueness constraint \(type) (\(fields.joined(separator: ", ")))"
        case .removedConstraint(let type, let fields): return "remove the uniqueness constraint \(type) (\(fields.joined(separator: ", ")))"
        case .changedParentType(let type, let from, let to):
            return "change the parent of \(type) from \(from ?? "none") to \(to ?? "none")"
        }
    }
}
