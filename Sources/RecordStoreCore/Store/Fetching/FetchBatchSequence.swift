/// The batches of a fetch request's records, read one at a time (keyset paging after the
/// first batch, which applies `fetchOffset`). Made by ``Store/fetchBatches(_:)``.
///
/// ```swift
/// for try await batch in store.fetchBatches(request) { handle(batch) }
/// ```
public struct FetchBatchSequence: AsyncSequence, Sendable {
    public typealias Element = [Record]

    package let store: Store
    package let request: FetchRequest

    /// Reads the next batch on demand.
    public struct AsyncIterator: AsyncIteratorProtocol {
        package let store: Store
        package let request: FetchRequest
        package var remaining: Int
        package var after: KeysetPosition?
        /// Records read so far: where the next batch starts when a sort walks a relationship.
        package var read = 0
        package var finished = false
        package var checked = false

        public mutating func next() async throws -> [Record]? {
            guard !finished, remaining > 0 else { return nil }
            try Task.checkCancellation()
            if !checked {
                checked = true
                guard request.resultType == .records || request.resultType == .recordIDs else {
                    throw RecordStoreError.invalidQuery("fetchBatches gives records: use the .records or .recordIDs result type")
                }
                try FetchValidation.check(request)
            }
            let size = request.fetchBatchSize > 0 ? request.fetchBatchSize : QueryOperation.defaultResultsLimit
            let wanted = Swift.min(size, remaining)
            let page = try await store.queryEngine.records(store.fetchPageSpecification(request, after: after, skipping: read, limit: wanted))
            remaining -= page.count
            read += page.count
            if page.count < wanted { finished = true }
            if let last = page.last, KeysetPosition.marksPlaces(in: request.sortDescriptors) {
                after = KeysetPosition(of: last, sorts: request.sortDescriptors)
            }
            guard !page.isEmpty else { return nil }
            return page.map { Store.projected($0, fields: request.fieldNames) }
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(store: store, request: request, remaining: request.fetchLimit > 0 ? request.fetchLimit : Int.max)
    }
}
