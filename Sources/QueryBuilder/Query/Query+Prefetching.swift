import RecordStore

extension Query {
    /// The query with relationships whose records are read along with the results, one read per
    /// relationship and level for all the results (not one per model), as Core Data's
    /// `relationshipKeyPathsForPrefetching`. Each ``RecordReference`` of a prefetched relationship
    /// then carries its ``RecordReference/target``; `customer.address` prefetches the customer's
    /// address too. A name that is no relationship of the type is an error when the query runs.
    /// `all()`, `first()`, `observe()` and ``stream(batchSize:)`` prefetch; a
    /// stream reads the relationships of each batch as it reads the batch.
    ///
    /// ```swift
    /// let orders = try Order.query(in: context).prefetching("customer").all()
    /// orders[0].customer.name   // "Alice", read with the orders
    /// ```
    public func prefetching(_ relationships: String...) -> Query {
        var query = self
        query.prefetchedRelationships += relationships
        return query
    }
}
