import RecordStore

extension Query {
    /// Every match as an `AsyncSequence` of models in the query's order, read from the store in
    /// batches of `batchSize` (at least 1), so memory holds one batch at a time however many
    /// records match. Offset, limit and selected fields apply as for ``all()-9svgr``.
    ///
    /// Pending changes (when the query includes them, the default) are merged in as ``all()-9svgr``
    /// merges them: copied when iteration starts; a matching pending insert or update comes in
    /// its place in the order, and pending deletes are left out. See ``ModelStream``.
    ///
    /// ```swift
    /// var total = 0
    /// for try await item in Item.query(in: context).where([.quantity: gt(0)]).stream(batchSize: 500) {
    ///     total += item.quantity
    /// }
    /// ```
    public func stream(batchSize: Int = QueryOperation.defaultResultsLimit) -> ModelStream<T> {
        ModelStream(query: self, batchSize: Swift.max(1, batchSize))
    }
}
