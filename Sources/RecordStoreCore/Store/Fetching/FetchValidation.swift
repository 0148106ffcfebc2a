import PredicateLanguage

/// Checks a fetch request before it runs: the entity name, the numbers, bound variables, and
/// (against the schema) what aggregates and grouping need.
///
/// ```swift
/// try FetchValidation.check(request)
/// if request.needsSchemaCheck { try FetchValidation.check(request, schema: schema) }
/// ```
package enum FetchValidation {
    /// Throws when the request is malformed whatever the schema.
    package static func check(_ request: FetchRequest) throws(RecordStoreError) {
        guard !request.entityName.isEmpty else { throw .invalidQuery("the entity name is empty") }
        try QueryValidation.checkShape(recordType: request.entityName, predicate: request.predicate ?? .truePredicate)
        guard request.fetchLimit >= 0, request.fetchOffset >= 0, request.fetchBatchSize >= 0 else {
            throw .invalidQuery("fetchLimit, fetchOffset and fetchBatchSize must not be negative")
        }
        if let variables = request.predicate?.variableNames, !variables.isEmpty {
            throw .invalidQuery("the predicate is a template with unbound variables \(variables.sorted().map { "$" + $0 }.joined(separator: ", ")): bind them with substituting(_:)")
        }
        if !request.aggregates.isEmpty || request.propertiesToGroupBy != nil {
            guard request.resultType == .dictionaries else {
                throw .invalidQuery("aggregates and propertiesToGroupBy need the .dictionaries result type")
            }
        }
        if let groupBy = request.propertiesToGroupBy, let fields = request.fieldNames {
            let missing = fields.filter { !groupBy.contains($0) }
            if !missing.isEmpty {
                throw .invalidQuery("with propertiesToGroupBy, the fetched fields must be grouped: \(missing.joined(separator: ", ")) is not")
            }
        }
    }

    /// Throws when the schema cannot group or aggregate what the request asks.
    package static func check(_ request: FetchRequest, schema: RecordTypeSchema?) throws(RecordStoreError) {
        for key in (request.propertiesToGroupBy ?? []) + request.aggregates.map(\.key) {
            if let type = schema?.field(named: key)?.type, type.isList {
                throw .invalidQuery("'\(key)' is a list field: it cannot be grouped or aggregated")
            }
        }
        for aggregate in request.aggregates where aggregate.function == .sum || aggregate.function == .average {
            guard let type = schema?.field(named: aggregate.key)?.type ?? MetadataField(rawValue: aggregate.key)?.fieldType else { continue }
            guard type == .int64 || type == .double || type == .bool else {
                throw .invalidQuery("\(aggregate.function.rawValue) of '\(aggregate.key)' needs a numeric field, and it has type \(type)")
            }
        }
    }
}

extension FetchRequest {
    /// Whether the request groups or aggregates (and so must be checked against the schema).
    package var isGrouped: Bool { !aggregates.isEmpty || propertiesToGroupBy != nil }
}
