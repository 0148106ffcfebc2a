// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

/// CloudKit's `filterBy` (a list of comparisons, all of which must hold) as one predicate of the
/// store's language, so a query the web API sends runs through the same planner as any other
/// (an indexed field is an index seek).
///
/// Each filter is `{comparator, fieldName | systemFieldName, fieldValue: {value, type}, distance}`.
/// Values always travel as bound arguments (`%@`), and field names are checked identifiers,
/// so nothing a client sends is spliced into the predicate's text.
///
/// ```swift
/// let query = try RequestBodyDecoder.decode(RecordQueryRequest.self, from: ["recordType": "City", "filterBy": [
///     ["comparator": "EQUALS", "fieldName": "countrycode", "fieldValue": ["value": "FR"]],
///     ["comparator": "GREATER_THAN", "fieldName": "population", "fieldValue": ["value": 500000]],
/// ]], at: "query")
/// let predicate = try QueryFilter.predicate(from: query.filterBy)
/// predicate.predicateFormat   // countrycode == "FR" AND population > 500000
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `SQLCondition`,
/// `FieldCondition`, `KeyPathCondition` and `AttributeCondition`.
enum QueryFilter {
    /// The predicate `filterBy` stands for (TRUEPREDICATE when it is empty or absent).
    /// `fieldTypes` are the stored types of the record type's fields: a value that does not fit
    /// its field's type is `BAD_REQUEST` (a field the schema does not know takes any value).
    /// More filters than `limits` allow, a list value or a token search longer than they allow,
    /// is `BAD_REQUEST` naming the limit.
    ///
    /// A record saved without an author (imported, or saved through the library) shows the
    /// database's `owner` in `created` and `modified` (``RecordAnswerStyle``): a filter on the
    /// creator or last modifier that names the owner (`EQUALS`, `NOT_EQUALS`, `IN`, `NOT_IN`)
    /// treats such a record as the owner's, so that it finds what the answers show.
    static func predicate(
        from filters: [FilterRequest], fieldTypes: [String: FieldType] = [:], limits: QueryLimits = QueryLimits(),
        owner: String = WireRecord.ownerName
    ) throws(ServerError) -> FormatPredicate {
        try limits.checkFilters(filters.count)
        var clauses: [String] = []
        var arguments: [Value] = []
        for filter in filters {
            if case .list(let members) = filter.value { try limits.checkList(members.count, place: "\(filter.path).fieldValue") }
            let clause = try translate(filter, fieldTypes: fieldTypes, limits: limits, owner: owner, arguments: &arguments)
            clauses.append("(\(clause))")
        }
        guard !clauses.isEmpty else { return .truePredicate }
        do {
            return try FormatPredicate(format: clauses.joined(separator: " AND "), argumentArray: arguments)
        } catch {
            throw ServerError(.badRequest, "query.filterBy: \(error)")
        }
    }

    /// One filter as a clause of the predicate's text, its values appended to `arguments`.
    private static func translate(
        _ filter: FilterRequest, fieldTypes: [String: FieldType], limits: QueryLimits, owner: String, arguments: inout [Value]
    ) throws(ServerError) -> String {
        let place = filter.path
        let comparator = filter.comparator
        let field = filter.field
        let value = filter.value
        if case .field(let name) = field, let type = fieldTypes[name], filter.distance == nil, !FieldValueFit.fits(value, type) {
            throw ServerError(.badRequest, "\(place).fieldValue is \(FieldValueFit.describe(value)), but the field '\(name)' is \(CloudKitService.wireTypeName(type))")
        }
        func bind(_ value: Value) -> String {
            arguments.append(value)
            return "%@"
        }
        // The field's text binds its name (%K) when it is written: call it where it goes, so
        // that the arguments stay in the order of the placeholders.
        func key() -> String { field.expression(bind: bind) }

        if let distance = filter.distance {
            return try distanceClause(comparator, key: key, value: value, distance: distance, place: place, bind: bind)
        }
        if field == .creator || field == .lastModifier, let names = namesOwner(value, owner: owner) {
            // Records without an author are the owner's (see ``predicate(from:fieldTypes:limits:owner:)``).
            switch (comparator, names) {
            case ("EQUALS", true), ("IN", true): return "\(key()) == nil OR \(try clause(comparator, field: field, key: key, value: value, place: place, limits: limits, bind: bind))"
            case ("NOT_EQUALS", true), ("NOT_IN", true): return "\(key()) != nil AND \(try clause(comparator, field: field, key: key, value: value, place: place, limits: limits, bind: bind))"
            default: break
            }
        }
        return try clause(comparator, field: field, key: key, value: value, place: place, limits: limits, bind: bind)
    }

    /// Whether a filter's value names the owner: the owner's name, or a list holding it; nil
    /// for a value that is neither a string nor a list.
    private static func namesOwner(_ value: Value, owner: String) -> Bool? {
        switch value {
        case .string(let name): name == owner
        case .list(let members): members.contains(.string(owner))
        default: nil
        }
    }

    /// One comparison of a field (its text from `key`) with a value.
    private static func clause(
        _ comparator: String, field: FieldReference, key: () -> String, value: Value, place: String, limits: QueryLimits, bind: (Value) -> String
    ) throws(ServerError) -> String {
        switch comparator {
        case "EQUALS": return "\(key()) == \(bind(value))"
        case "NOT_EQUALS": return "\(key()) != \(bind(value))"
        case "LESS_THAN": return "\(key()) < \(bind(value))"
        case "LESS_THAN_OR_EQUALS": return "\(key()) <= \(bind(value))"
        case "GREATER_THAN": return "\(key()) > \(bind(value))"
        case "GREATER_THAN_OR_EQUALS": return "\(key()) >= \(bind(value))"
        case "BEGINS_WITH": return "\(key()) BEGINSWITH \(bind(try string(value, place: place)))"
        case "NOT_BEGINS_WITH": return "NOT (\(key()) BEGINSWITH \(bind(try string(value, place: place))))"
        case "IN": return "\(key()) IN \(bind(try list(value, place: place)))"
        case "NOT_IN": return "NOT (\(key()) IN \(bind(try list(value, place: place))))"
        case "LIST_CONTAINS": return "\(bind(value)) IN \(key())"
        case "NOT_LIST_CONTAINS": return "NOT (\(bind(value)) IN \(key()))"
        case "LIST_CONTAINS_ANY": return "ANY \(key()) IN \(bind(try list(value, place: place)))"
        case "NOT_LIST_CONTAINS_ANY": return "NONE \(key()) IN \(bind(try list(value, place: place)))"
        case "LIST_CONTAINS_ALL", "NOT_LIST_CONTAINS_ALL":
            let members = try list(value, place: place)
            guard case .list(let values) = members, !values.isEmpty else {
                return comparator == "LIST_CONTAINS_ALL" ? "TRUEPREDICATE" : "FALSEPREDICATE"
            }
            let all = values.map { "\(bind($0)) IN \(key())" }.joined(separator: " AND ")
            return comparator == "LIST_CONTAINS_ALL" ? all : "NOT (\(all))"
        case "LIST_MEMBER_BEGINS_WITH": return "ANY \(key()) BEGINSWITH \(bind(try string(value, place: place)))"
        case "NOT_LIST_MEMBER_BEGINS_WITH": return "NONE \(key()) BEGINSWITH \(bind(try string(value, place: place)))"
        case "CONTAINS_ALL_TOKENS", "CONTAINS_ANY_TOKENS":
            return try tokensClause(comparator, field: field, key: key, value: value, place: place, limits: limits, bind: bind)
        case "NEAR":
            throw ServerError(.badRequest, "\(place): NEAR needs a \"distance\" in meters")
        default:
            throw ServerError(.badRequest, "\(place): unknown comparator '\(comparator.prefix(80))'")
        }
    }

    /// A comparison of the distance from a location field to a point.
    private static func distanceClause(
        _ comparator: String, key: () -> String, value: Value, distance meters: Double, place: String, bind: (Value) -> String
    ) throws(ServerError) -> String {
        guard case .location = value else {
            throw ServerError(.badRequest, "\(place).fieldValue is a LOCATION when a \"distance\" is given, not \(FieldValueFit.describe(value))")
        }
        guard meters.isFinite, meters >= 0 else {
            throw ServerError(.badRequest, "\(place).distance is a number of meters, at least 0")
        }
        let operation: String
        switch comparator {
        case "NEAR", "LESS_THAN": operation = "<"
        case "LESS_THAN_OR_EQUALS": operation = "<="
        case "GREATER_THAN": operation = ">"
        case "GREATER_THAN_OR_EQUALS": operation = ">="
        default: throw ServerError(.badRequest, "\(place): the comparator \(comparator.prefix(80)) does not take a \"distance\"")
        }
        return "distanceToLocation:fromLocation:(\(key()), \(bind(value))) \(operation) \(bind(.double(meters)))"
    }

    /// Full-text search: every searchable field (`allTokens`), or one string field's tokens.
    /// Any of the tokens is one comparison (`SELF CONTAINS "the words"`, or the field's tokens `IN`
    /// the list of them); all of them is one comparison a token, which the store gathers into one
    /// search (`TokenSearch`): either way one full-text match, the record's text tokenized once.
    private static func tokensClause(
        _ comparator: String, field: FieldReference, key: () -> String, value: Value, place: String, limits: QueryLimits,
        bind: (Value) -> String
    ) throws(ServerError) -> String {
        guard case .string(let text) = value else { throw ServerError(.badRequest, "\(place): \(comparator) takes a STRING of words") }
        var tokens: [String] = []
        var seen = Set<String>()
        for token in FullTextTokenizer.tokens(text) where seen.insert(token).inserted { tokens.append(token) }
        guard !tokens.isEmpty else { return "FALSEPREDICATE" }
        if tokens.count > limits.maximumTokens {
            throw ServerError(.badRequest, "\(place): \(comparator) searches for \(tokens.count) tokens; a query may search for at most \(limits.maximumTokens) (the server's QueryLimits.maximumTokens)")
        }
        let allTokens: Bool
        if case .allTokens = field { allTokens = true } else { allTokens = false }
        if comparator == "CONTAINS_ANY_TOKENS" {
            if allTokens { return "self CONTAINS \(bind(.string(tokens.joined(separator: " "))))" }
            return "ANY tokenize:using:(\(key()), nil) IN \(bind(.list(tokens.map(Value.string))))"
        }
        if allTokens { return tokens.map { "self CONTAINS \(bind(.string($0)))" }.joined(separator: " AND ") }
        return tokens.map { "ANY tokenize:using:(\(key()), nil) == \(bind(.string($0)))" }.joined(separator: " AND ")
    }

    private static func string(_ value: Value, place: String) throws(ServerError) -> Value {
        guard case .string = value else { throw ServerError(.badRequest, "\(place): this comparator takes a STRING value") }
        return value
    }

    private static func list(_ value: Value, place: String) throws(ServerError) -> Value {
        guard case .list = value else { throw ServerError(.badRequest, "\(place): this comparator takes a _LIST value (an array)") }
        return value
    }
}
#endif
