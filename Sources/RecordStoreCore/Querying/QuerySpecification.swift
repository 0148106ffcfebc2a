import PredicateLanguage

/// Everything one query asks of an engine: the single input of every engine's query path.
///
/// Which is which: ``RecordQuery`` is the public query (`CKQuery`: a record type, a predicate,
/// sorts); ``FetchRequest`` is Core Data's request (a query plus limit, offset, result type);
/// a `QuerySpecification` is what either becomes on its way to an engine, with the zone, the
/// limit, the resume point of a page and the schema mode the query is checked under.
///
/// ```swift
/// var specification = QuerySpecification(recordType: "City", predicate: predicate, sorts: [Sort("name")], zone: .default, limit: 10)
/// specification.after = KeysetPosition(sortValues: [.string("Paris")], recordName: "2988507")
/// let page = try await engine.records(specification)
/// ```
@_spi(StorageEngine) public struct QuerySpecification: Sendable, Hashable {
    /// The record type to search.
    @_spi(StorageEngine) public var recordType: String
    /// The condition records must meet.
    @_spi(StorageEngine) public var predicate: FormatPredicate
    /// The sort keys, most significant first (the record name breaks remaining ties).
    @_spi(StorageEngine) public var sorts: [Sort]
    /// The zone to search.
    @_spi(StorageEngine) public var zone: ZoneID
    /// The most records to return; nil for all.
    @_spi(StorageEngine) public var limit: Int?
    /// Keyset paging: only records strictly after this position in the sort order.
    @_spi(StorageEngine) public var after: KeysetPosition? = nil
    /// Offset paging: the number of matches (in order) to skip before the first returned.
    @_spi(StorageEngine) public var offset: Int = 0
    /// Whether the records of the record type's subtypes (``RecordTypeSchema/parentType``) are
    /// selected too, as Core Data's `includesSubentities` (true, its default); see ``HierarchyQuery``.
    @_spi(StorageEngine) public var includesSubtypes: Bool = true
    /// The schema mode the query is validated under (production needs indexes).
    @_spi(StorageEngine) public var mode: SchemaMode = .development
    /// The limits on the work of the predicate's evaluation, across every record the query
    /// tests (``QueryCostLimits``); none by default.
    @_spi(StorageEngine) public var costLimits: QueryCostLimits = .none
    /// Where the engine counts the rows it reads and its residual predicate tests (``QueryTally``),
    /// for the store's metrics; nil when nobody counts. No part of the query's identity.
    @_spi(StorageEngine) public var tally: QueryTally? = nil

    /// Creates a specification.
    @_spi(StorageEngine) public init(
        recordType: String, predicate: FormatPredicate, sorts: [Sort] = [], zone: ZoneID = .default, limit: Int? = nil,
        mode: SchemaMode = .development
    ) {
        self.recordType = recordType
        self.predicate = predicate
        self.sorts = sorts
        self.zone = zone
        self.limit = limit
        self.mode = mode
    }

    /// The same query without limit, offset or resume point: every match.
    @_spi(StorageEngine) public var allMatches: QuerySpecification {
        var all = self
        all.limit = nil
        all.offset = 0
        all.after = nil
        return all
    }
}
