import PredicateLanguage

/// Everything one query asks: the single input of the query path of every engine,
/// so that later layers (cursors, operations) can add conditions in one place.
struct QuerySpecification: Sendable, Hashable {
    /// The record type to search.
    var recordType: String
    /// The condition records must meet.
    var predicate: FormatPredicate
    /// The sort keys, most significant first (the record name breaks remaining ties).
    var sorts: [Sort]
    /// The zone to search.
    var zone: ZoneID
    /// The most records to return; nil for all.
    var limit: Int?
    /// Keyset paging: only records strictly after this position in the sort order.
    var after: KeysetPosition? = nil
    /// Offset paging: the number of matches (in order) to skip before the first returned.
    var offset: Int = 0
}
