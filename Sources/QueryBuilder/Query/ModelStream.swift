import PredicateLanguage
import RecordStore

/// An `AsyncSequence` of every model a ``Query`` matches, in the query's order, read from the
/// store in batches so that memory holds one batch at a time. Made by ``Query/stream(batchSize:)``.
///
/// Pending changes: when the query includes them (the default) and the context holds pending
/// changes of the model's type when iteration starts, the stream merges them in, as ``Query/all()-9svgr``
/// does: a pending insert or update that matches comes in its place in the order, and a record
/// with a pending update or delete is not read from the store. Those pending changes are copied
/// once, at the first `next()`; changes registered after that do not affect a running iteration.
/// The merge holds the matching pending records besides the batch, and applies the offset and
/// limit itself; without pending changes the store pages, skips and limits.
///
/// ```swift
/// for try await item in try Item.query(in: context).order(by: \.date).stream(batchSize: 500) {
///     print(item.name)
/// }
/// ```
public struct ModelStream<T: RecordModel>: AsyncSequence, Sendable {
    public typealias Element = T

    /// The query streamed.
    let query: Query<T>
    /// The records read per round trip.
    let batchSize: Int

    /// Reads the next batch when the current one is used up.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let query: Query<T>
        let batchSize: Int
        var started = false
        /// The store's batches; nil once they are used up.
        var batches: FetchBatchSequence.AsyncIterator?
        var batch: [Record] = []
        var batchPosition = 0
        /// The matching pending records, sorted, and how many were used.
        var pending: [Record] = []
        var pendingPosition = 0
        /// The records the pending changes replace or delete.
        var replaced: Set<RecordID> = []
        var ordering = RecordOrdering(sorts: [])
        /// Merging only: matches still to skip, matches still to return, the fields to keep.
        var toSkip = 0
        var remaining = Int.max
        var fields: [FetchProperty]?
        /// The decoders of the batch and of the pending records: with their prefetched
        /// relationships (read once per batch) when the query prefetches any.
        var decoder = RecordDecoder()
        var pendingDecoder = RecordDecoder()

        /// The next model, or nil at the end.
        ///
        /// ```swift
        /// var iterator = try Item.query(in: context).stream().makeAsyncIterator()
        /// let first = try await iterator.next()
        /// ```
        public mutating func next() async throws -> T? {
            if !started { try await start() }
            while remaining > 0 {
                if batchPosition == batch.count, try await readBatch() { continue }
                let stored = batchPosition < batch.count ? batch[batchPosition] : nil
                let waiting = pendingPosition < pending.count ? pending[pendingPosition] : nil
                let record: Record
                let isPending: Bool
                if let waiting, stored.map({ ordering.precedes(waiting, $0) }) ?? true {
                    (record, isPending) = (waiting, true)
                    pendingPosition += 1
                } else if let stored {
                    (record, isPending) = (stored, false)
                    batchPosition += 1
                } else {
                    return nil
                }
                if toSkip > 0 {
                    toSkip -= 1
                    continue
                }
                remaining -= 1
                let kept = fields.map { ModelContext.projected(record, fields: $0) } ?? record
                return try (isPending ? pendingDecoder : decoder).decode(T.self, from: kept)
            }
            return nil
        }

        /// Copies the pending changes (reading what they prefetch) and sets up the store's batches.
        private mutating func start() async throws {
            started = true
            var request = query.fetchRequest
            request.fetchBatchSize = batchSize
            let context = query.context
            let changes = query.includesPendingChanges ? context.pendingChanges(ofType: T.recordType) : []
            if !changes.isEmpty {
                ordering = RecordOrdering(sorts: request.sortDescriptors)
                pending = try await context.matchingPendingRecords(changes, predicate: query.predicate).sorted(by: ordering.precedes)
                replaced = Set(changes.map(\.0))
                toSkip = request.fetchOffset
                remaining = request.fetchLimit > 0 ? request.fetchLimit : Int.max
                fields = request.propertiesToFetch
                request.fetchOffset = 0
                request.fetchLimit = 0
                request.propertiesToFetch = nil
                pendingDecoder = try await query.modelDecoder(for: pending)
            }
            batches = context.store.fetchBatches(request).makeAsyncIterator()
        }

        /// Reads the store's next batch; false when the store has no more.
        private mutating func readBatch() async throws -> Bool {
            guard var reading = batches else { return false }
            let next: [Record]?
            do {
                next = try await reading.next()
            } catch RecordStoreError.unknownRecordType(let name, _) where name == T.recordType {
                next = nil   // the store has never had the type: no stored records, only pending ones
            }
            batches = reading
            guard let next else {
                batches = nil
                return false
            }
            query.context.remember(next)
            batch = replaced.isEmpty ? next : next.filter { !replaced.contains($0.recordID) }
            batchPosition = 0
            decoder = try await query.modelDecoder(for: batch)
            return true
        }
    }

    /// An iterator from the first match.
    ///
    /// ```swift
    /// var iterator = try Item.query(in: context).stream().makeAsyncIterator()
    /// ```
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(query: query, batchSize: batchSize)
    }
}
