// Part of the Server trait: without it, this module is empty.
#if Server
import PredicateLanguage
import RecordStore

/// What one query a client sends may cost (`records/query`, `records/explain`, and the query of a
/// subscription): the size of what it asks for, checked before it runs, and the work of testing
/// its predicate on the records, bounded while it runs.
///
/// - A query with more `filterBy` entries than ``maximumFilters``, more distinct words in its
///   token searches (`CONTAINS_ALL_TOKENS`, `CONTAINS_ANY_TOKENS`, `SELF CONTAINS`, `tokenize:using:`)
///   than ``maximumTokens``, or a list (an `IN` or `LIST_CONTAINS_*` value, a `{…}` aggregate or
///   list argument of `query.predicate`) of more than ``maximumListMembers`` values is refused with
///   `BAD_REQUEST` naming the limit and the count.
/// - Testing the predicate on records where the database cannot (SUBQUERY, collection operators,
///   `ALL`, MATCHES on PostgreSQL; every record on the memory engine) may take ``maximumEvaluationSteps``
///   steps across all the records one request tests, and must end within ``evaluationTimeLimit``;
///   past either, the request answers `BAD_REQUEST` naming the limit (CloudKit's error table has no
///   code of its own for a query too costly).
///
/// ```swift
/// var configuration = ServerConfiguration(port: 8080)
/// configuration.queryLimits.maximumTokens = 200
/// configuration.queryLimits.evaluationTimeLimit = .seconds(30)
/// ```
public struct QueryLimits: Sendable, Hashable {
    /// The most `filterBy` entries one query may have (100).
    public var maximumFilters: Int
    /// The most distinct words all the token searches of one query may ask for together (100).
    public var maximumTokens: Int
    /// The most values one list of a query may hold (1,000).
    public var maximumListMembers: Int
    /// The most evaluation steps (collection members visited by SUBQUERY, ANY, ALL, NONE and
    /// collection operators) testing one request's predicate on the records may take together
    /// (10,000,000: a few seconds of work).
    public var maximumEvaluationSteps: Int
    /// How long testing one request's predicate on the records may take (10 seconds).
    public var evaluationTimeLimit: Duration

    /// Limits; every one has a default.
    ///
    /// ```swift
    /// let limits = QueryLimits(maximumTokens: 50, evaluationTimeLimit: .seconds(2))
    /// ```
    public init(
        maximumFilters: Int = 100, maximumTokens: Int = 100, maximumListMembers: Int = 1_000,
        maximumEvaluationSteps: Int = 10_000_000, evaluationTimeLimit: Duration = .seconds(10)
    ) {
        self.maximumFilters = maximumFilters
        self.maximumTokens = maximumTokens
        self.maximumListMembers = maximumListMembers
        self.maximumEvaluationSteps = maximumEvaluationSteps
        self.evaluationTimeLimit = evaluationTimeLimit
    }

    /// The store's limits for one request's query, its deadline counted from now.
    func costLimits() -> QueryCostLimits {
        QueryCostLimits(maximumEvaluationSteps: maximumEvaluationSteps, deadline: .now + evaluationTimeLimit)
    }

    /// `BAD_REQUEST` when a query has more `filterBy` entries than it may.
    func checkFilters(_ count: Int) throws(ServerError) {
        guard count > maximumFilters else { return }
        throw ServerError(.badRequest, "query.filterBy has \(count) filters; a query may have at most \(maximumFilters) (the server's QueryLimits.maximumFilters)")
    }

    /// `BAD_REQUEST` when a list a query sends has more values than one may; `place` says where.
    func checkList(_ count: Int, place: String) throws(ServerError) {
        guard count > maximumListMembers else { return }
        throw ServerError(.badRequest, "\(place) has a list of \(count) values; a list may have at most \(maximumListMembers) (the server's QueryLimits.maximumListMembers)")
    }

    /// `BAD_REQUEST` when the predicate's token searches ask for more words than a query may, or
    /// one of its lists (at any depth) is longer than a list may be.
    func check(_ predicate: FormatPredicate) throws(ServerError) {
        let words = Self.searchedWords(predicate)
        if words.count > maximumTokens {
            throw ServerError(.badRequest, "the query searches for \(words.count) tokens; a query may search for at most \(maximumTokens) (the server's QueryLimits.maximumTokens)")
        }
        var longestList = 0
        _ = predicate.containsExpression { expression in
            switch expression {
            case .constant(.list(let members)): longestList = max(longestList, members.count)
            case .aggregate(let members): longestList = max(longestList, members.count)
            default: break
            }
            return false
        }
        try checkList(longestList, place: "the query")
    }

    /// The distinct words of the token searches among the predicate's `AND`, `OR` and `NOT` parts.
    private static func searchedWords(_ predicate: FormatPredicate) -> Set<String> {
        switch predicate {
        case .constant:
            return []
        case .and(let members), .or(let members):
            return members.reduce(into: Set<String>()) { $0.formUnion(searchedWords($1)) }
        case .not(let inner):
            return searchedWords(inner)
        case .comparison:
            return TokenSearch(predicate).map { Set($0.groups.joined()) } ?? []
        }
    }
}
#endif
