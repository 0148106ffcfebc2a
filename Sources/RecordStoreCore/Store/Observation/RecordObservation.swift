/// A live query: an `AsyncSequence` that yields the current results first, then a
/// ``ResultsChange`` after every commit that changes them, from any handle, process or client
/// the engine hears (see ``Store/observe(_:inZone:limit:sectionKey:)``).
///
/// Each iteration is one observation: it starts when the first element is asked for and stops
/// when the iteration ends or its task is cancelled, releasing what it held. Several iterations
/// of one sequence observe independently.
///
/// ```swift
/// let query = try RecordQuery(recordType: "City", predicate: FormatPredicate(format: "population > 1000000"),
///                             sorts: [Sort("population", ascending: false)])
/// for try await change in store.observe(query, limit: 10) {
///     print(change.kind, change.records.map { $0["name"] ?? nil }, change.difference)
/// }
/// ```
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `ObservedResults`,
/// `LiveQuery` and `ModelObservation`.
public struct RecordObservation: AsyncSequence, Sendable {
    public typealias Element = ResultsChange
    public typealias Failure = RecordStoreError

    package let store: Store
    package let specification: QuerySpecification
    package let sectionKey: String?
    /// An error found before the first read (thrown by the first `next()`).
    package let problem: RecordStoreError?

    public func makeAsyncIterator() -> Iterator {
        Iterator(query: liveQuery())
    }

    /// One observation, for an observer that drives it itself (``LiveQuery/nextWithoutWaiting()``),
    /// signalling `wakeup` whenever commits are delivered to it.
    package func liveQuery(wakeup: Wakeup? = nil) -> LiveQuery {
        LiveQuery(store: store, specification: specification, sectionKey: sectionKey, problem: problem, wakeup: wakeup)
    }

    /// Iterates one observation.
    public struct Iterator: AsyncIteratorProtocol {
        package let query: LiveQuery

        public mutating func next() async throws(RecordStoreError) -> ResultsChange? {
            try await query.next()
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(RecordStoreError) -> ResultsChange? {
            try await query.next()
        }
    }
}

/// One observation's state, behind its iterator: the live results, their sections, and the
/// inbox the feed delivers commits to. Used by one task at a time (its iterator's).
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `RecordObservation`,
/// `LiveResults` and `ModelObservation`.
package final class LiveQuery: @unchecked Sendable {
    private let store: Store
    private let specification: QuerySpecification
    private let sectionKey: String?
    private var problem: RecordStoreError?
    private let inbox: ObservationInbox
    private var live: LiveResults?
    private var layout: SectionLayout?
    private var isSubscribed = false
    /// The metrics that counted this observation among the live queries, while it is subscribed.
    private var liveQueryMetrics: StoreMetrics?
    private var isFinished = false
    /// Whether the query walks relationships: its results then depend on records of other
    /// types, which the changed records alone cannot decide, so every delivered commit reads it again.
    private var walksRelationships = false

    package init(store: Store, specification: QuerySpecification, sectionKey: String?, problem: RecordStoreError?, wakeup: Wakeup? = nil) {
        self.store = store
        self.specification = specification
        self.sectionKey = sectionKey
        self.problem = problem
        inbox = ObservationInbox(recordType: specification.recordType, zone: specification.zone, wakeup: wakeup)
    }

    deinit {
        if isSubscribed { store.engine.changeFeed.unsubscribe(inbox) }
        liveQueryMetrics?.recordLiveQuery(started: false)
    }

    package func next() async throws(RecordStoreError) -> ResultsChange? {
        guard !isFinished else { return nil }
        do {
            guard live != nil else { return try await start() }
            return try await nextChange()
        } catch {
            finish()
            throw error
        }
    }

    private func finish() {
        isFinished = true
        if isSubscribed {
            store.engine.changeFeed.unsubscribe(inbox)
            isSubscribed = false
        }
        liveQueryMetrics?.recordLiveQuery(started: false)
        liveQueryMetrics = nil
        live = nil
    }

    /// Subscribes, reads the results, and applies what was committed meanwhile.
    private func start() async throws(RecordStoreError) -> ResultsChange? {
        if let problem { throw problem }
        if let reached = try await reachedRecordTypes() {
            walksRelationships = true
            inbox.observe(alsoRecordTypes: reached)
        }
        let hierarchy = try await hierarchy()
        if hierarchy.types != [specification.recordType] { inbox.observe(subtypes: hierarchy.types) }
        await store.engine.changeFeed.subscribe(inbox)
        isSubscribed = true
        let metrics = store.metrics
        metrics.recordLiveQuery(started: true)
        liveQueryMetrics = metrics
        if Task.isCancelled {
            finish()
            return nil
        }
        var live = try LiveResults(
            query: specification, searchableFields: try await searchableFields(), records: try await read(), recordTypes: hierarchy.types,
            resolvesEntity: hierarchy.resolvesEntity)
        if let waiting = inbox.takeWaiting() {
            if waiting.lostTrack || walksRelationships {
                live.replace(with: try await read())
            } else if case .needsRead = live.apply(try live.relevantChanges(of: waiting.commits)) {
                live.replace(with: try await read())
            }
        }
        self.live = live
        let layout = sectionKey.map { SectionLayout(key: $0, results: live.results) }
        self.layout = layout
        return ResultsChange(
            kind: .initial, records: live.results, difference: .none, sections: layout?.sections ?? [],
            sectionedDifference: layout.map { $0.difference(to: $0, items: .none) })
    }

    /// Waits for commits that change the results.
    private func nextChange() async throws(RecordStoreError) -> ResultsChange? {
        while true {
            guard let delivery = await inbox.take() else {
                finish()
                return nil
            }
            if let change = try await process(delivery) { return change }
        }
    }

    /// The first results, or the change the commits already delivered make; nil without
    /// waiting when nothing was delivered or it changed nothing. For an observer that waits on
    /// something else too (a builder query also waits for its context's pending changes): it
    /// gives the observation a ``Wakeup`` to signal on each delivery.
    package func nextWithoutWaiting() async throws(RecordStoreError) -> ResultsChange? {
        guard !isFinished else { return nil }
        do {
            guard live != nil else { return try await start() }
            guard let delivery = inbox.takeWaiting() else { return nil }
            return try await process(delivery)
        } catch {
            finish()
            throw error
        }
    }

    /// Applies delivered commits: the change they make, or nil when they changed nothing shown.
    private func process(_ delivery: ObservationInbox.Delivery) async throws(RecordStoreError) -> ResultsChange? {
        // Taken out while it changes, so that its storage (every record of the results) is
        // changed in place rather than copied.
        guard var live = self.live.take() else { return nil }
        defer { self.live = live }
        // A migration changes records in place, keeping their change tags, so that no
        // difference shows it: the results are read again and given whole.
        let migrated = delivery.commits.contains { $0.unlisted.contains(.everything) }
        let kind: ResultsChange.Kind = delivery.lostTrack || migrated ? .reset : .changed
        let shown = live.results
        var difference: ResultsDifference
        if delivery.lostTrack || walksRelationships || delivery.commits.contains(where: { $0.changesUnlisted(recordType: specification.recordType, zone: specification.zone) }) {
            difference = try await reread(&live, shown: shown)
        } else {
            switch live.apply(try live.relevantChanges(of: delivery.commits)) {
            case .unchanged: difference = .none
            case .changed(let change): difference = change
            case .needsRead: difference = try await reread(&live, shown: shown)
            }
        }
        if difference.isEmpty, kind == .changed { return nil }
        let oldLayout = layout
        let newLayout = oldLayout?.applying(difference, results: live.results)
        layout = newLayout
        return ResultsChange(
            kind: kind, records: live.results, difference: difference, sections: newLayout?.sections ?? [],
            sectionedDifference: oldLayout.flatMap { old in newLayout.map { old.difference(to: $0, items: difference) } })
    }

    /// Reads the query again; the difference from the results shown before.
    private func reread(_ live: inout LiveResults, shown: ObservedResults) async throws(RecordStoreError) -> ResultsDifference {
        let records = try await read()
        live.replace(with: records)
        return ResultsDifference(old: shown.records, new: records)
    }

    /// Reads the query. In development mode a record type nobody saved yet has no records
    /// (rather than being unknown): an observation may start before the first save.
    private func read() async throws(RecordStoreError) -> [Record] {
        do {
            return try await store.queryEngine.records(specification)
        } catch .unknownRecordType(let type, _) where type == specification.recordType && store.mode == .development {
            return []
        }
    }

    /// The record types the query's relationships reach, or nil when it walks none. A query
    /// that may walk a relationship of a record type nobody has saved yet (so its fields are not
    /// known) listens to every type of its zone.
    private func reachedRecordTypes() async throws(RecordStoreError) -> ReachedRecordTypes? {
        let keys = specification.sorts.map(\.key)
        guard RelationshipQuery.mayWalk(specification.predicate, keys: keys) else { return nil }
        let catalog = try await store.engine.catalog()
        guard catalog.recordTypes[specification.recordType] != nil else { return .everyType }
        guard let query = try RelationshipQuery(specification, catalog: catalog) else { return nil }
        return query.walk.reachedRecordTypes(from: specification.recordType, catalog: catalog)
    }

    /// The record types whose records the query selects (its own, and those below it unless
    /// the query leaves subtypes out), and whether its predicate's `entity` key path is each
    /// record's type (``HierarchyQuery``, ``EntityKeyPath``).
    private func hierarchy() async throws(RecordStoreError) -> (types: [String], resolvesEntity: Bool) {
        let catalog = try await store.engine.catalog()
        let types = catalog.concreteTypes(of: specification.recordType, includingSubtypes: specification.includesSubtypes)
        return (types, EntityKeyPath.isNamed(in: specification.predicate, schema: catalog.recordTypes[specification.recordType]))
    }

    private func searchableFields() async throws(RecordStoreError) -> [String] {
        try await store.engine.catalog().recordTypes[specification.recordType]?.searchableFieldNames ?? []
    }
}
