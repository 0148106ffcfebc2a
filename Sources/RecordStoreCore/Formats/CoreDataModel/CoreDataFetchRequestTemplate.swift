/// A fetch request kept in a model: a named template at the model's top level
/// (`<fetchRequest name="HighEarners" entity="Employee" predicateString="salary > $MINIMUM"/>`),
/// or the request of a fetched property. The predicate is kept as its text, `$VARIABLES` and all.
///
/// ```swift
/// let template = model.fetchRequestTemplate(named: "HighEarners")
/// template?.predicateString   // "salary > $MINIMUM"
/// ```
public struct CoreDataFetchRequestTemplate: Sendable, Hashable, Codable {
    /// The template's name.
    public var name: String
    /// The entity it fetches.
    public var entity: String
    /// The predicate in `NSPredicate` format, with `$VARIABLES`, or nil for every object.
    public var predicateString: String?
    /// The most objects it returns (`fetchLimit`), if set.
    public var fetchLimit: Int?
    /// The batch size (`fetchBatchSize`), if set.
    public var fetchBatchSize: Int?
    /// The result type as written (`resultType`: `0` objects, `1` object IDs, `2` dictionaries,
    /// `4` counts), if set.
    public var resultType: String?
    /// Whether objects of sub-entities are included (`includeSubentities`), if set.
    public var includesSubentities: Bool?
    /// Whether only distinct results are returned (`returnDistinctResults`), if set.
    public var returnsDistinctResults: Bool?

    /// Creates a template.
    ///
    /// ```swift
    /// CoreDataFetchRequestTemplate(name: "ByName", entity: "Department", predicateString: "name == $NAME")
    /// ```
    public init(
        name: String, entity: String, predicateString: String? = nil, fetchLimit: Int? = nil, fetchBatchSize: Int? = nil,
        resultType: String? = nil, includesSubentities: Bool? = nil, returnsDistinctResults: Bool? = nil
    ) {
        self.name = name
        self.entity = entity
        self.predicateString = predicateString
        self.fetchLimit = fetchLimit
        self.fetchBatchSize = fetchBatchSize
        self.resultType = resultType
        self.includesSubentities = includesSubentities
        self.returnsDistinctResults = returnsDistinctResults
    }
}
