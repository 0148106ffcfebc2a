import PredicateLanguage

/// A planned query: the statement's parts, the arguments in placeholder order, and the residual.
struct SQLQueryPlan: Sendable {
    /// `WHERE` condition (without the keyword), never empty.
    var whereClause: String
    /// The arguments of the `WHERE` clause.
    var whereArguments: [SQLArgument]
    /// `ORDER BY` terms (without the keywords).
    var orderBy: String
    /// The arguments of the `ORDER BY` terms.
    var orderArguments: [SQLArgument]
    /// The part of the predicate the evaluator checks on each row; nil when SQL is exact.
    var residual: FormatPredicate?
    /// Keyset paging: conditions added to the `WHERE` clause one after the other, each run in
    /// order until the page is full (empty: no keyset, one statement).
    var keysetSegments: [SQLCondition] = []
}
