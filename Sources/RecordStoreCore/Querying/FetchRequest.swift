import PredicateLanguage

/// A fetch of one entity (record type): Core Data's `NSFetchRequest` counterpart.
///
/// Run it with ``Store/fetch(_:)-ucfn`` (everything at once), ``Store/fetchBatches(_:)`` (in
/// batches of ``fetchBatchSize``, memory bounded) or ``Store/count(for:)-7co01``.
///
/// - `fetchLimit` 0 means no limit and `fetchOffset` skips matches first, as in Core Data.
/// - ``resultType``: records, record IDs, the count, or dictionaries of ``propertiesToFetch``.
/// - Dictionary results leave nil values out; ``returnsDistinctResults`` drops repeated dictionaries.
/// - Aggregates (``AggregateProperty``) in ``propertiesToFetch`` with ``propertiesToGroupBy`` give one
///   dictionary per group, ordered by the sorts (on group-by keys or aggregate names), then by the
///   group-by values; they run as SQL `GROUP BY` on SQLite and in Swift on the memory engine.
/// - A predicate with `$VARIABLE`s is a template: bind it per call with ``substituting(_:)``.
///
/// Which is which: a `FetchRequest` is Core Data's request; ``RecordQuery`` is CloudKit's query
/// (batches and cursors); both become a package-internal `QuerySpecification` for the engine.
///
/// ```swift
/// var template = FetchRequest(entityName: "City")
/// template.predicate = try FormatPredicate(format: "countrycode == $COUNTRY AND population > $MINIMUM")
/// template.sortDescriptors = [Sort("population", ascending: false)]
/// template.fetchLimit = 10
/// let french = try store.fetch(template.substituting(["COUNTRY": "FR", "MINIMUM": 100_000])).records
///
/// var perCountry = FetchRequest(entityName: "City", resultType: .dictionaries)
/// perCountry.propertiesToFetch = ["countrycode", .aggregate(AggregateProperty(name: "people", function: .sum, key: "population"))]
/// perCountry.propertiesToGroupBy = ["countrycode"]
/// ```
public struct FetchRequest: Sendable, Hashable {
    /// What a fetch returns.
    public enum ResultType: String, Sendable, Hashable, CaseIterable {
        /// Whole records (``propertiesToFetch`` limits their fields).
        case records
        /// Record identifiers only.
        case recordIDs
        /// The number of matches (after offset and limit).
        case count
        /// One dictionary per match, or per group with aggregates.
        case dictionaries
    }

    /// The record type fetched.
    public var entityName: String
    /// The condition; nil for every record.
    public var predicate: FormatPredicate?
    /// The sort keys, most significant first (the record name breaks ties).
    public var sortDescriptors: [Sort]
    /// The most results; 0 for no limit.
    public var fetchLimit: Int
    /// The number of matches skipped first.
    public var fetchOffset: Int
    /// The batch size of ``Store/fetchBatches(_:)`` and of the reads behind ``Store/fetch(_:)-ucfn``; 0 for one read.
    public var fetchBatchSize: Int
    /// The fields of dictionary results (and of record results when set), and aggregates; nil for all fields.
    public var propertiesToFetch: [FetchProperty]?
    /// The fields dictionary results are grouped by (with aggregates).
    public var propertiesToGroupBy: [String]?
    /// What the fetch returns.
    public var resultType: ResultType
    /// With dictionary results: leave out dictionaries equal to an earlier one.
    public var returnsDistinctResults: Bool
    /// The zone searched.
    public var zoneID: ZoneID
    /// Whether records of the entity's sub-entities (record types whose
    /// ``RecordTypeSchema/parentType`` leads to it) are fetched too: Core Data's
    /// `includesSubentities`, true by default. An abstract entity's records are all its
    /// sub-entities' records.
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "Employee")
    /// request.includesSubentities = false   // employees, not managers
    /// ```
    public var includesSubentities: Bool = true
    /// Relationships whose records are read along with the matches (Core Data's
    /// `relationshipKeyPathsForPrefetching`): one read per relationship and level, not one per
    /// record. Key paths go through relationships (`department`, `department.manager`,
    /// `employees`). `Store.fetchPrefetched(_:)` reads them; ``Store/fetch(_:)-ucfn`` ignores them.
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "Employee")
    /// request.relationshipKeyPathsForPrefetching = ["department"]
    /// let fetched = try store.fetchPrefetched(request)
    /// fetched.related.record(through: "department", of: fetched.records[0])?["name"]
    /// ```
    public var relationshipKeyPathsForPrefetching: [String]

    /// Creates a request for every record of an entity.
    ///
    /// ```swift
    /// let request = FetchRequest(entityName: "City")
    /// ```
    public init(entityName: String, predicate: FormatPredicate? = nil, sortDescriptors: [Sort] = [], resultType: ResultType = .records) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = 0
        self.fetchOffset = 0
        self.fetchBatchSize = 0
        self.propertiesToFetch = nil
        self.propertiesToGroupBy = nil
        self.resultType = resultType
        self.returnsDistinctResults = false
        self.zoneID = .default
        self.relationshipKeyPathsForPrefetching = []
    }

    /// The request with its predicate's `$VARIABLE`s replaced by values (`predicateWithSubstitutionVariables:`).
    ///
    /// ```swift
    /// let bound = template.substituting(["COUNTRY": "FR"])
    /// ```
    public func substituting(_ variables: [String: Value]) -> FetchRequest {
        var bound = self
        bound.predicate = predicate?.substituting(variables)
        return bound
    }

    /// The field names of ``propertiesToFetch`` (nil when unset).
    package var fieldNames: [String]? {
        propertiesToFetch?.compactMap { if case .field(let name) = $0 { name } else { nil } }
    }

    /// The aggregates of ``propertiesToFetch``.
    package var aggregates: [AggregateProperty] {
        propertiesToFetch?.compactMap { if case .aggregate(let aggregate) = $0 { aggregate } else { nil } } ?? []
    }
}
