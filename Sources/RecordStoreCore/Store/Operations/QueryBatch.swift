/// One batch of a query: the records in order and, when more remain, the cursor to continue.
///
/// ```swift
/// let batch = try await store.records(matching: query, resultsLimit: 50)
/// for record in batch.records { print(record.recordID) }
/// if let cursor = batch.cursor { /* more remain */ }
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `QueryOperation`,
/// `QueryPage`, `QueryAnswer` and `ModifyOperation`.
public struct QueryBatch: Sendable, Hashable {
    /// The records of this batch, in the query's order.
    public var records: [Record]
    /// Where to continue; nil when this was the last batch.
    public var cursor: QueryCursor?

    /// Creates a batch.
    public init(records: [Record], cursor: QueryCursor?) {
        self.records = records
        self.cursor = cursor
    }
}
