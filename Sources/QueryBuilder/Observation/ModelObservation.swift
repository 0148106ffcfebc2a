import RecordStore
@_spi(StorageEngine) import RecordStoreCore

extension Query {
    /// Observes the query: yields its models now, then again after every change, with the change
    /// set (``ModelResultsChange``): commits to the store from anywhere the store hears
    /// (`Store.observe(_:sectionKey:)`), and this context's own pending changes,
    /// merged in as ``all()-9svgr`` merges them (unless ``includesPendingChanges(_:)`` turned them off).
    ///
    /// ```swift
    /// let observation = Item.query(in: context).where("quantity > 0").order(by: "name").observe()
    /// for try await change in observation {
    ///     print(change.models.map(\.name))     // ["Apple", "Pear"], then ["Apple", "Fig", "Pear"], ...
    /// }
    /// ```
    public func observe() -> ModelObservation<T> {
        ModelObservation(query: self)
    }
}

/// A builder query's live results: an `AsyncSequence` of ``ModelResultsChange`` (see
/// ``Query/observe()``). Each iteration observes on its own and stops when it ends or its task is
/// cancelled.
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `RecordObservation`,
/// `LiveQuery` and `ObservedResults`.
public struct ModelObservation<T: RecordModel>: AsyncSequence, Sendable {
    public typealias Element = ModelResultsChange<T>

    let query: Query<T>

    public func makeAsyncIterator() -> Iterator {
        Iterator(observer: ModelObserver(query: query))
    }

    /// Iterates one observation.
    public struct Iterator: AsyncIteratorProtocol {
        let observer: ModelObserver<T>

        public mutating func next() async throws -> ModelResultsChange<T>? {
            try await observer.next()
        }
    }
}

/// One builder observation: the store's live results of the query (widened by the pending
/// changes, when the query is limited), merged with the context's pending changes whenever
/// either changes. One ``Wakeup`` hears both: the store observation's deliveries and the
/// context's pending changes; the store observation is then brought up to date without
/// waiting, so that a save (which clears pending changes and commits them) never shows a moment
/// without its records. Used by one task at a time.
final class ModelObserver<T: RecordModel>: @unchecked Sendable {
    /// Extra room in the store window beyond the pending changes, so that a few more pending
    /// changes do not restart the store observation.
    private static var windowSlack: Int { 32 }

    private let query: Query<T>
    private let wakeup = Wakeup()
    private var storeObservation: LiveQuery?
    /// The store's records, as the store observation last gave them.
    private var stored: [Record]?
    /// Whether the store observation reset since the last element.
    private var storeReset = false
    /// The store window observed (nil: every match).
    private var window: Int?
    private var shown: [Record]?
    private var models: [RecordID: (record: Record, model: T)] = [:]
    private var isFinished = false

    init(query: Query<T>) {
        self.query = query
    }

    deinit {
        query.context.pendingChangeListeners.remove(wakeup)
    }

    func next() async throws -> ModelResultsChange<T>? {
        guard !isFinished else { return nil }
        if storeObservation == nil {
            query.context.pendingChangeListeners.add(wakeup)
            startStoreObservation(window: neededWindow())
        }
        while true {
            if Task.isCancelled {
                finish()
                return nil
            }
            do {
                try await catchUpWithStore()
            } catch {
                finish()
                throw error
            }
            if let stored {
                if let window, let needed = neededWindow(), needed > window {
                    startStoreObservation(window: needed)
                    continue
                }
                let merged = try await self.merged(stored)
                let kind: ResultsChange.Kind = shown == nil ? .initial : (storeReset ? .reset : .changed)
                let difference = ResultsDifference(old: shown ?? [], new: merged)
                if kind != .changed || !difference.isEmpty {
                    shown = merged
                    storeReset = false
                    return ModelResultsChange(kind: kind, models: try await decode(merged), difference: kind == .initial ? .none : difference)
                }
            }
            await wakeup.wait(upTo: .seconds(3_600))
        }
    }

    /// Applies every change the store observation was delivered (its first results first).
    private func catchUpWithStore() async throws {
        guard let storeObservation else { return }
        while let change = try await storeObservation.nextWithoutWaiting() {
            stored = change.records.records
            if change.kind == .reset { storeReset = true }
        }
    }

    private func finish() {
        isFinished = true
        storeObservation = nil
        query.context.pendingChangeListeners.remove(wakeup)
    }

    /// The pending changes of the query's type it must merge, when it merges them.
    private func pendingChanges() -> [(RecordID, PendingChange)] {
        query.includesPendingChanges ? query.context.pendingChanges(ofType: T.recordType) : []
    }

    /// The store window a limited query needs: its offset and limit, plus the records pending
    /// changes may take out of it; nil when the query is not limited.
    private func neededWindow() -> Int? {
        guard let limit = query.fetchLimit, limit > 0 else { return nil }
        return query.fetchOffset + limit + pendingChanges().count
    }

    /// Observes the store's matches: every field, no offset, at most `window`.
    private func startStoreObservation(window needed: Int?) {
        window = needed.map { $0 + Self.windowSlack }
        var request = query.fetchRequest
        request.fetchOffset = 0
        request.fetchLimit = window ?? 0
        request.propertiesToFetch = nil
        storeObservation = query.context.store.observe(request).liveQuery(wakeup: wakeup)
        stored = nil
    }

    /// The page `all()` would answer, from the store's window: the pending changes merged in,
    /// then the offset, limit and selected fields.
    private func merged(_ stored: [Record]) async throws -> [Record] {
        let request = query.fetchRequest
        let pending = pendingChanges()
        if !pending.isEmpty {
            return try await PendingMerge(request: request, pending: pending).merged(with: stored, context: query.context)
        }
        return PendingMerge.page(of: stored, request: request)
    }

    /// The models of records, decoding only the records not decoded before in that version.
    /// A query that prefetches relationships reads them for every change and decodes every
    /// record again (a related record may have changed when the record did not).
    private func decode(_ records: [Record]) async throws -> [T] {
        guard query.prefetchedRelationships.isEmpty else {
            models = [:]
            return try await query.decodeAll(records)
        }
        let decoder = RecordDecoder()
        var kept: [RecordID: (record: Record, model: T)] = [:]
        kept.reserveCapacity(records.count)
        let result = try records.map { record in
            if let known = models[record.recordID], known.record == record {
                kept[record.recordID] = known
                return known.model
            }
            let model = try decoder.decode(T.self, from: record)
            kept[record.recordID] = (record, model)
            return model
        }
        models = kept
        return result
    }
}
