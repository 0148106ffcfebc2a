import PredicateLanguage

/// Checks a query before it runs, in two steps:
/// - ``checkShape(recordType:predicate:)``: what needs no schema (a valid record type name, a
///   predicate not nested too deeply), once, where a query enters the store (``RecordQuery``
///   checks it when created);
/// - ``check(_:catalog:)``: what needs the schema, by the engine, against the catalog of the
///   snapshot the query reads: a record type the store has never had, a field the type has never
///   had (in the predicate or a sort; metadata names are always there), sorts that cannot work,
///   and in production mode fields without the index the query needs. Unknown names are errors
///   with the closest existing names, so that a typo never reads as an empty result.
///
/// ```swift
/// try QueryValidation.checkShape(recordType: "City", predicate: predicate)
/// let schema = try QueryValidation.check(specification, catalog: catalog)
/// ```
@_spi(StorageEngine) public enum QueryValidation {
    /// Throws when the record type name is invalid or the predicate nests too deeply.
    @_spi(StorageEngine) public static func checkShape(recordType: String, predicate: FormatPredicate) throws(RecordStoreError) {
        try Identifier.checkRecordType(recordType)
        try PredicateNesting.check(predicate)
    }

    /// Returns the record type's schema; throws when the type or a field the query names does not
    /// exist, a sort cannot work, or (in production mode) a field lacks the index the query needs.
    @discardableResult
    /// With `allowsRelationshipWalks` (an engine that plans walks), an inverse to-many's name is
    /// accepted like a field, and a sort through a relationship is left to the engine's planner
    /// (which orders by it or throws ``RecordStoreError/relationshipWalkNotPlanned(_:recordType:)``);
    /// otherwise both are unknown fields.
    @_spi(StorageEngine) public static func check(
        _ specification: QuerySpecification, catalog: SchemaCatalog, allowsRelationshipWalks: Bool = false
    ) throws(RecordStoreError) -> RecordTypeSchema {
        guard let schema = catalog.recordTypes[specification.recordType] else {
            throw .unknownRecordType(
                specification.recordType, suggestions: NameSuggestions.closest(to: specification.recordType, among: catalog.recordTypes.keys))
        }
        for sort in specification.sorts {
            if allowsRelationshipWalks, let first = sort.key.split(separator: ".").first.map(String.init), sort.key.contains("."),
               catalog.walkableRelationship(first, of: schema.name) != nil {
                continue
            }
            try check(sort, schema: schema, mode: specification.mode)
        }
        try checkFields(
            specification.predicate, schema: schema, needsIndexes: specification.mode == .production,
            allowsRelationshipWalks: allowsRelationshipWalks)
        return schema
    }

    private static func check(_ sort: Sort, schema: RecordTypeSchema, mode: SchemaMode) throws(RecordStoreError) {
        if let metadata = MetadataField(rawValue: sort.key) {
            if sort.distanceOrigin != nil {
                throw .invalidSort(key: sort.key, reason: "\(metadata.rawValue) is not a location field")
            }
            return
        }
        if let dot = sort.key.firstIndex(of: ".") {
            // A key path through a field that is not a relationship: the error names its first
            // component, as the walk's errors do.
            let first = String(sort.key[..<dot])
            _ = try field(first, of: schema)
            throw .notARelationship(field: first, recordType: schema.name, keyPath: sort.key)
        }
        let field = try field(sort.key, of: schema)
        if sort.distanceOrigin != nil {
            guard field.type == .location else {
                throw .invalidSort(key: sort.key, reason: "a distance sort needs a location field, and '\(sort.key)' has type \(field.type)")
            }
            if mode == .production, !field.isSortable, !field.isQueryable {
                throw .notSortable(field: sort.key, recordType: schema.name)
            }
            return
        }
        guard field.type.isSortable else {
            throw .invalidSort(key: sort.key, reason: "fields of type \(field.type) do not sort")
        }
        if mode == .production, !field.isSortable {
            throw .notSortable(field: sort.key, recordType: schema.name)
        }
    }

    /// A field of the schema, or ``RecordStoreError/unknownField(_:recordType:suggestions:)``
    /// naming the closest fields (metadata names included).
    private static func field(_ name: String, of schema: RecordTypeSchema) throws(RecordStoreError) -> FieldSchema {
        guard let field = schema.field(named: name) else {
            let names = schema.fields.map(\.name) + MetadataField.allCases.map(\.rawValue)
            throw .unknownField(name, recordType: schema.name, suggestions: NameSuggestions.closest(to: name, among: names))
        }
        return field
    }

    /// Throws for the first field the predicate tests that the type does not have; with
    /// `needsIndexes`, also for one without the index type its test needs (``IndexPolicy``):
    /// SORTABLE for a range (`<`, `<=`, `>`, `>=`, `BETWEEN`) of the field itself, SEARCHABLE for
    /// a token search of the field (`tokenize:using:`), QUERYABLE for any other test, and a
    /// searchable field of the type for a full-text search of the record (`self CONTAINS`).
    private static func checkFields(_ predicate: FormatPredicate, schema: RecordTypeSchema, needsIndexes: Bool, allowsRelationshipWalks: Bool) throws(RecordStoreError) {
        switch predicate {
        case .constant: return
        case .and(let parts), .or(let parts):
            for part in parts { try checkFields(part, schema: schema, needsIndexes: needsIndexes, allowsRelationshipWalks: allowsRelationshipWalks) }
        case .not(let inner):
            try checkFields(inner, schema: schema, needsIndexes: needsIndexes, allowsRelationshipWalks: allowsRelationshipWalks)
        case .comparison(let comparison):
            if case .evaluatedObject = comparison.left, comparison.operator == .contains {
                if needsIndexes, schema.searchableFieldNames.isEmpty { throw .notSearchable(recordType: schema.name) }
                return
            }
            for expression in [comparison.left, comparison.right] {
                if case .keyPath(let path) = expression, EntityKeyPath.names(path, in: schema) { continue }
                if needsIndexes, comparison.operator.isRange, case .keyPath(let path) = expression {
                    // Ranges read a sortable index, as CloudKit's: `population > 1000` needs SORTABLE.
                    let first = String(path.split(separator: ".", maxSplits: 1).first ?? "")
                    if MetadataField(rawValue: first) != nil || first.hasPrefix("@") { continue }
                    // A range past a relationship (`employees.@count > 10`, `department.budget > 5`)
                    // tests the records it reaches, not a field of this type: the walk checks it.
                    if allowsRelationshipWalks, path.contains("."), walks(first, in: schema) { continue }
                    let field = try field(first, of: schema)
                    if !field.isSortable { throw .notSortable(field: first, recordType: schema.name) }
                    continue
                }
                try checkFields(expression, schema: schema, needsIndexes: needsIndexes, allowsRelationshipWalks: allowsRelationshipWalks)
            }
        }
    }

    /// Whether a key path's first component walks to other records: a relationship, or a
    /// `REFERENCE` or `LIST<REFERENCE>` field (walked without a declared relationship).
    private static func walks(_ name: String, in schema: RecordTypeSchema) -> Bool {
        if schema.relationship(named: name) != nil { return true }
        switch schema.field(named: name)?.type {
        case .reference?, .list(.reference)?: return true
        default: return false
        }
    }

    private static func checkFields(_ expression: FormatExpression, schema: RecordTypeSchema, needsIndexes: Bool, allowsRelationshipWalks: Bool) throws(RecordStoreError) {
        switch expression {
        case .keyPath(let path):
            let first = String(path.split(separator: ".", maxSplits: 1).first ?? "")
            if MetadataField(rawValue: first) != nil || first.hasPrefix("@") { return }
            // An inverse to-many is no field; `RelationshipWalkAnalyzer` checks the paths through it.
            if allowsRelationshipWalks, let relationship = schema.relationship(named: first), relationship.storedField == nil { return }
            let field = try field(first, of: schema)
            if needsIndexes, !field.isQueryable { throw .notQueryable(field: first, recordType: schema.name) }
        case .constant, .evaluatedObject, .variable:
            return
        case .member(let base, _), .negation(let base), .cast(let base, _):
            try checkFields(base, schema: schema, needsIndexes: needsIndexes, allowsRelationshipWalks: allowsRelationshipWalks)
        case .index(let base, let subscriptExpression):
            try checkFields(base, schema: schema, needsIndexes: needsIndexes, allowsRelationshipWalks: allowsRelationshipWalks)
            if case .expression(let inner) = subscriptExpression { try checkFields(inner, schema: schema, needsIndexes: needsIndexes, allowsRelationshipWalks: allowsRelationshipWalks) }
        case .function("tokenize:using:", let arguments):
            // A token search of one field reads its words, as CloudKit's: it needs SEARCHABLE.
            guard case .keyPath(let path)? = arguments.first else {
                for argument in arguments { try checkFields(argument, schema: schema, needsIndexes: needsIndexes, allowsRelationshipWalks: allowsRelationshipWalks) }
                return
            }
            let first = String(path.split(separator: ".", maxSplits: 1).first ?? "")
            if MetadataField(rawValue: first) == nil, !first.hasPrefix("@") {
                let field = try field(first, of: schema)
                if needsIndexes, !field.isSearchable { throw .fieldNotSearchable(field: first, recordType: schema.name) }
            }
            for argument in arguments.dropFirst() { try checkFields(argument, schema: schema, needsIndexes: needsIndexes, allowsRelationshipWalks: allowsRelationshipWalks) }
        case .aggregate(let members), .function(_, let members):
            for member in members { try checkFields(member, schema: schema, needsIndexes: needsIndexes, allowsRelationshipWalks: allowsRelationshipWalks) }
        case .customFunction(let target, _, let arguments):
            try checkFields(target, schema: schema, needsIndexes: needsIndexes, allowsRelationshipWalks: allowsRelationshipWalks)
            for argument in arguments { try checkFields(argument, schema: schema, needsIndexes: needsIndexes, allowsRelationshipWalks: allowsRelationshipWalks) }
        case .arithmetic(_, let left, let right):
            try checkFields(left, schema: schema, needsIndexes: needsIndexes, allowsRelationshipWalks: allowsRelationshipWalks)
            try checkFields(right, schema: schema, needsIndexes: needsIndexes, allowsRelationshipWalks: allowsRelationshipWalks)
        case .subquery(let collection, _, _):
            try checkFields(collection, schema: schema, needsIndexes: needsIndexes, allowsRelationshipWalks: allowsRelationshipWalks)
        case .ternary(let condition, let then, let otherwise):
            try checkFields(condition, schema: schema, needsIndexes: needsIndexes, allowsRelationshipWalks: allowsRelationshipWalks)
            try checkFields(then, schema: schema, needsIndexes: needsIndexes, allowsRelationshipWalks: allowsRelationshipWalks)
            try checkFields(otherwise, schema: schema, needsIndexes: needsIndexes, allowsRelationshipWalks: allowsRelationshipWalks)
        }
    }
}

extension ComparisonOperator {
    /// Whether the operator tests a range (`<`, `<=`, `>`, `>=`, `BETWEEN`): what a SORTABLE index serves.
    fileprivate var isRange: Bool {
        switch self {
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .between: true
        default: false
        }
    }
}
