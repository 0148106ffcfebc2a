import PredicateLanguage

/// Checks a query before it runs, in two steps:
/// - ``checkShape(recordType:predicate:)``: what needs no schema (a valid record type name, a
///   predicate not nested too deeply), once, where a query enters the store (``RecordQuery``
///   checks it when created);
/// - ``check(_:schema:)``: what needs the schema (sorts that cannot work; in production mode,
///   fields without the index the query needs), by the engine, against the catalog of the
///   snapshot the query reads.
///
/// ```swift
/// try QueryValidation.checkShape(recordType: "City", predicate: predicate)
/// try QueryValidation.check(specification, schema: catalog.recordTypes["City"])
/// ```
package enum QueryValidation {
    /// Throws when the record type name is invalid or the predicate nests too deeply.
    package static func checkShape(recordType: String, predicate: FormatPredicate) throws(RecordStoreError) {
        try Identifier.checkRecordType(recordType)
        try PredicateNesting.check(predicate)
    }

    /// Throws when a sort or (in production mode) a predicate needs what the schema lacks.
    package static func check(_ specification: QuerySpecification, schema: RecordTypeSchema?) throws(RecordStoreError) {
        let mode = specification.mode
        if mode == .production, schema == nil {
            throw .unknownRecordType(specification.recordType)
        }
        for sort in specification.sorts {
            try check(sort, recordType: specification.recordType, schema: schema, mode: mode)
        }
        if mode == .production, let schema {
            try checkIndexes(specification.predicate, schema: schema)
        }
    }

    private static func check(_ sort: Sort, recordType: String, schema: RecordTypeSchema?, mode: SchemaMode) throws(RecordStoreError) {
        if let metadata = MetadataField(rawValue: sort.key) {
            if sort.distanceOrigin != nil {
                throw .invalidSort(key: sort.key, reason: "\(metadata.rawValue) is not a location field")
            }
            return
        }
        guard let field = schema?.field(named: sort.key) else {
            if mode == .production { throw .unknownField(sort.key, recordType: recordType) }
            return
        }
        if sort.distanceOrigin != nil {
            guard field.type == .location else {
                throw .invalidSort(key: sort.key, reason: "a distance sort needs a location field, and '\(sort.key)' has type \(field.type)")
            }
            if mode == .production, !field.isSortable, !field.isQueryable {
                throw .notSortable(field: sort.key, recordType: recordType)
            }
            return
        }
        guard field.type.isSortable else {
            throw .invalidSort(key: sort.key, reason: "fields of type \(field.type) do not sort")
        }
        if mode == .production, !field.isSortable {
            throw .notSortable(field: sort.key, recordType: recordType)
        }
    }

    /// Throws for the first field the predicate tests that is not queryable, or for a
    /// full-text search on a type without searchable fields.
    private static func checkIndexes(_ predicate: FormatPredicate, schema: RecordTypeSchema) throws(RecordStoreError) {
        switch predicate {
        case .constant: return
        case .and(let parts), .or(let parts):
            for part in parts { try checkIndexes(part, schema: schema) }
        case .not(let inner):
            try checkIndexes(inner, schema: schema)
        case .comparison(let comparison):
            if case .evaluatedObject = comparison.left, comparison.operator == .contains {
                if schema.searchableFieldNames.isEmpty { throw .notSearchable(recordType: schema.name) }
                return
            }
            for expression in [comparison.left, comparison.right] {
                try checkIndexes(expression, schema: schema)
            }
        }
    }

    private static func checkIndexes(_ expression: FormatExpression, schema: RecordTypeSchema) throws(RecordStoreError) {
        switch expression {
        case .keyPath(let path):
            let first = String(path.split(separator: ".", maxSplits: 1).first ?? "")
            if MetadataField(rawValue: first) != nil || first.hasPrefix("@") { return }
            guard let field = schema.field(named: first) else { throw .unknownField(first, recordType: schema.name) }
            guard field.isQueryable else { throw .notQueryable(field: first, recordType: schema.name) }
        case .constant, .evaluatedObject, .variable:
            return
        case .member(let base, _), .negation(let base), .cast(let base, _):
            try checkIndexes(base, schema: schema)
        case .index(let base, let subscriptExpression):
            try checkIndexes(base, schema: schema)
            if case .expression(let inner) = subscriptExpression { try checkIndexes(inner, schema: schema) }
        case .aggregate(let members), .function(_, let members):
            for member in members { try checkIndexes(member, schema: schema) }
        case .customFunction(let target, _, let arguments):
            try checkIndexes(target, schema: schema)
            for argument in arguments { try checkIndexes(argument, schema: schema) }
        case .arithmetic(_, let left, let right):
            try checkIndexes(left, schema: schema)
            try checkIndexes(right, schema: schema)
        case .subquery(let collection, _, _):
            try checkIndexes(collection, schema: schema)
        case .ternary(let condition, let then, let otherwise):
            try checkIndexes(condition, schema: schema)
            try checkIndexes(then, schema: schema)
            try checkIndexes(otherwise, schema: schema)
        }
    }
}
