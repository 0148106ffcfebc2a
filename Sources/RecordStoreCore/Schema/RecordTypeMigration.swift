/// What a ``SchemaMigration`` does to one record type: where it comes from, what it becomes,
/// and how its records' fields move. An engine performs it on the stored records without
/// changing their change tags, dates or history positions.
///
/// ```swift
/// let book = RecordTypeMigration(source: "Book", target: bookV2, renamedFields: ["name": "title"])
/// book.restructures   // true: a field's values move to another name
/// ```
public struct RecordTypeMigration: Sendable, Hashable {
    /// The record type it migrates from (another name when the type is renamed); nil for a new type.
    public var source: String?
    /// The record type's schema after the migration, complete (fields and relationships).
    public var target: RecordTypeSchema
    /// Fields renamed: the old name to the new one.
    public var renamedFields: [String: String]
    /// Fields removed, by their old names, in order.
    public var removedFields: [String]
    /// The values given to records that have none (by new field name): a new field's default,
    /// or the default of a field that becomes required.
    public var filledDefaults: [String: FieldDefaultValue]
    /// Fields (new names) that become required without a default: every record must hold a value.
    public var mustHaveValues: [String]
    /// New required fields without a default: the type must hold no records.
    public var mustBeEmpty: [String]

    /// Creates a record type's migration.
    public init(
        source: String?, target: RecordTypeSchema, renamedFields: [String: String] = [:], removedFields: [String] = [],
        filledDefaults: [String: FieldDefaultValue] = [:], mustHaveValues: [String] = [], mustBeEmpty: [String] = []
    ) {
        self.source = source
        self.target = target
        self.renamedFields = renamedFields
        self.removedFields = removedFields
        self.filledDefaults = filledDefaults
        self.mustHaveValues = mustHaveValues
        self.mustBeEmpty = mustBeEmpty
    }

    /// Whether the stored records change beyond what defining ``target`` does: the type or a
    /// field is renamed, a field removed, or values filled in. An engine then takes the type's
    /// indexes down (``stripped(_:)``) and builds them again after.
    public var restructures: Bool {
        guard let source else { return false }
        return source != target.name || !renamedFields.isEmpty || !removedFields.isEmpty || !filledDefaults.isEmpty
    }

    /// The new name of a field of the source type (itself when not renamed), or nil when removed.
    public func newName(of field: String) -> String? {
        if removedFields.contains(field) { return nil }
        return renamedFields[field] ?? field
    }

    /// The source type's schema as the migration leaves its stored fields before the target is
    /// defined: renamed (the type and its fields), the removed fields gone, no index on any
    /// field and no relationships (the target's are defined after).
    public func restructured(_ source: RecordTypeSchema) -> RecordTypeSchema {
        var schema = Self.stripped(source)
        schema.name = target.name
        schema.relationships = []
        schema.fields = schema.fields.compactMap { field in
            guard let name = newName(of: field.name) else { return nil }
            var renamed = field
            renamed.name = name
            return renamed
        }
        return schema
    }

    /// A schema without indexes: every field neither queryable, sortable nor searchable.
    ///
    /// ```swift
    /// RecordTypeMigration.stripped(city).fields.contains(where: \.isIndexed)   // false
    /// ```
    public static func stripped(_ schema: RecordTypeSchema) -> RecordTypeSchema {
        var stripped = schema
        for index in stripped.fields.indices {
            stripped.fields[index].isQueryable = false
            stripped.fields[index].isSortable = false
            stripped.fields[index].isSearchable = false
        }
        // Its constraints' indexes too: a renamed field's column moves first, then the final define builds them.
        stripped.uniquenessConstraints = []
        return stripped
    }

    /// The target without indexes: what an engine defines first, so that the new fields' columns
    /// exist before defaults are filled in and the indexes are built.
    public var strippedTarget: RecordTypeSchema { Self.stripped(target) }
}
