import Foundation
import PredicateLanguage
import RecordStore

/// A fluent, chainable query for models of type `T` in a ``ModelContext``: the `Query`
/// package's API (Core Data's fetch requests made fluent) over the record store, on Linux.
///
/// A query is a value: every call returns a new query and leaves the old one as it was.
/// Chained `.where` conditions are joined with `AND`; `.or` makes everything before it one
/// parenthesized group (`where(A).where(B).or(C)` is `(A AND B) OR C`). Nothing runs until
/// a result is asked for (`all()`, `first()`, `count()`, `exists()`, ...).
///
/// ```swift
/// let context = ModelContext(store: Store.inMemory())
/// let items = try Item.query(in: context)
///     .where("quantity == 1")
///     .order(by: "date")
///     .all()                                   // [Item]
///
/// try Item.query(in: context)
///     .where([.quantity: 1])                   // Queryable: compiler-checked attributes
///     .order(by: .date)
///     .all()
/// ```
///
/// Beyond results, a query streams its matches in batches (``stream(batchSize:)``), computes
/// aggregates in the store (`sum`, `average`, `min`, `max`, `group(by:)`: SQL on the SQLite
/// engine), and converts to the store's ``fetchRequest``.
public struct Query<T: RecordModel>: Sendable {
    /// The context the query reads (and `firstOrInsert()` inserts into).
    public let context: ModelContext
    /// The combined condition; nil when the query has none (everything matches).
    var condition: FormatPredicate?
    /// The sort levels, first to last.
    public internal(set) var sorts: [Sort] = []
    /// At most this many results; nil for no limit (`.limit(0)` is no limit too, as Core Data's `fetchLimit`).
    public internal(set) var fetchLimit: Int?
    /// How many results to skip first.
    public internal(set) var fetchOffset: Int = 0
    /// The fields to fetch; nil for all of them.
    public internal(set) var selectedKeys: [String]?
    /// The relationships whose records are read with the results (``prefetching(_:)``).
    public internal(set) var prefetchedRelationships: [String] = []
    /// Whether results include the context's pending changes (true unless turned off).
    public internal(set) var includesPendingChanges: Bool = true
    /// The field values the plain equality conditions fix, for `firstOrInsert()`.
    var insertionValues: [String: Value] = [:]
    /// Why `firstOrInsert()` cannot insert from the conditions; nil when it can.
    var insertionProblem: String?

    /// Creates a query for all models of type `T` in a context. ``RecordModel/query(in:)`` reads better.
    ///
    /// ```swift
    /// let query = Query<Item>(context: context)
    /// ```
    public init(context: ModelContext) {
        self.context = context
    }

    /// The record type the query reads.
    ///
    /// ```swift
    /// Item.query(in: context).recordType   // "Item"
    /// ```
    public var recordType: String { T.recordType }

    /// The combined condition of the chain as one predicate (`TRUEPREDICATE` when there is none);
    /// its `predicateFormat` is the chain's format string.
    ///
    /// ```swift
    /// try Item.query(in: context).where("quantity == 1").where("name == %@", "Alice").or("name == %@", "Bob")
    ///     .predicate.predicateFormat
    /// // (quantity == 1 AND name == "Alice") OR name == "Bob"
    /// ```
    public var predicate: FormatPredicate { condition ?? .truePredicate }

    // MARK: Combining conditions

    /// The query with a clause joined by `AND`.
    func joined(and clause: FormatPredicate) -> Query {
        var query = self
        if let condition {
            query.condition = .and(Self.members(of: condition, isAnd: true) + Self.members(of: clause, isAnd: true))
        } else {
            query.condition = clause
        }
        return query
    }

    /// The query with everything so far as one group, joined by `OR` with a clause.
    func joined(or clause: FormatPredicate) throws -> Query {
        guard let condition else { throw QueryError.orWithoutPrecedingCondition(recordType: T.recordType) }
        var query = self
        query.condition = .or(Self.members(of: condition, isAnd: false) + Self.members(of: clause, isAnd: false))
        query.insertionProblem = insertionProblem ?? "'.or(...)' makes the values of a new model uncertain"
        return query
    }

    /// The members of a predicate inside a compound of one connective: its own members when it
    /// is a non-empty compound of the same connective (so chains stay flat), else itself.
    private static func members(of predicate: FormatPredicate, isAnd: Bool) -> [FormatPredicate] {
        switch predicate {
        case .and(let members) where isAnd && !members.isEmpty: members
        case .or(let members) where !isAnd && !members.isEmpty: members
        default: [predicate]
        }
    }

    /// Records a field condition for `firstOrInsert()`.
    mutating func noteInsertion(field: String, _ condition: FieldCondition) {
        guard let value = condition.insertionValue else {
            insertionProblem = insertionProblem
                ?? "the condition '\(condition.predicate.predicateFormat)' is not a plain equality"
            return
        }
        if let existing = insertionValues[field], existing != value {
            insertionProblem = insertionProblem ?? "the conditions give '\(field)' two different values"
        } else {
            insertionValues[field] = value
        }
    }
}

extension RecordModel {
    /// A query for all models of this type in a context.
    ///
    /// ```swift
    /// let everything = try Item.query(in: context).all()
    /// ```
    public static func query(in context: ModelContext) -> Query<Self> {
        Query(context: context)
    }
}
