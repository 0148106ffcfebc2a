import RecordStore

/// Reads a query's records a batch at a time through keyset cursors, for `find` and `export`:
/// each batch is handed on and dropped before the next is read, so memory holds one batch.
///
/// ```swift
/// let read = BatchedRead(store: store, query: query, zone: .default)
/// _ = try await read.run(from: nil, limit: nil) { batch in writer.write(batch); return true }
/// ```
struct BatchedRead {
    let store: Store
    let query: RecordQuery
    let zone: ZoneID
    /// Records a round trip reads when the whole result is wanted.
    var batchSize = 1_000

    /// Reads from the start, or after `cursor`; with `limit`, one batch of that many records
    /// and the cursor of what remains; without, every record to the end (nil cursor). `body`
    /// answers false to stop early (its reader went away).
    func run(
        from cursor: QueryCursor?, limit: Int?, _ body: ([Record]) -> Bool
    ) async throws(RecordStoreError) -> QueryCursor? {
        if let cursor { try store.checkCursor(cursor, continues: query, inZone: zone) }
        if limit == 0 { return cursor }
        var batch: QueryBatch
        if let cursor {
            batch = try await store.records(continuingMatchFrom: cursor, resultsLimit: limit ?? batchSize)
        } else {
            batch = try await store.records(matching: query, inZone: zone, resultsLimit: limit ?? batchSize)
        }
        guard limit == nil else {
            _ = body(batch.records)
            return batch.cursor
        }
        guard body(batch.records) else { return nil }
        while let next = batch.cursor {
            batch = try await store.records(continuingMatchFrom: next, resultsLimit: batchSize)
            guard body(batch.records) else { return nil }
        }
        return nil
    }
}
