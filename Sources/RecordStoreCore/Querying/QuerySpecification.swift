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
package struct QuerySpecification: Sendable, Hashable {
    /// The record type to search.
    package var recordType: String
    /// The condition records must meet.
    package var predicate: FormatPredicate
    /// The sort keys, most significant first (the record name breaks remaining ties).
    package var sorts: [Sort]
    /// The zone to search.
    package var zone: ZoneID
    /// The most records to return; nil for all.
    package var limit: Int?
    /// Keyset paging: only records strictly after this position in the sort order.
    package var after: KeysetPosition? = nil
    /// Offset paging: the number of matches (in order) to skip before the first returned.
    package var offset: Int = 0
    /// The schema mode the query is validated under (production needs indexes).
    package var mode: SchemaMode = .development

    /// Creates a specification.
    package init(
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
    package var allMatches: QuerySpecification {
        var all = self
        all.limit = nil
        all.offset = 0
        all.after = nil
        return all
    }
}
