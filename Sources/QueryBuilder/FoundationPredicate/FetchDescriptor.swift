import Foundation
import PredicateLanguage
import RecordStore

/// What to fetch of a model, as SwiftData's `FetchDescriptor` says it: a Foundation predicate,
/// sort descriptors, a limit, an offset and the properties to fetch, run by a ``ModelContext``
/// (`fetch`, `fetchCount`, `fetchIdentifiers`, `enumerate`, `observe`) through a ``Query``.
///
/// ```swift
/// var descriptor = FetchDescriptor<Item>(predicate: #Predicate { $0.quantity > 1 },
///                                        sortBy: [SortDescriptor(\Item.quantity, order: .reverse)])
/// descriptor.fetchLimit = 10
/// let items = try context.fetch(descriptor)
/// ```
public struct FetchDescriptor<T: Queryable>: Sendable {
    /// The condition; nil for every model.
    public var predicate: Predicate<T>?
    /// The sort levels, first to last.
    public var sortBy: [SortDescriptor<T>]
    /// At most this many models; nil for all.
    public var fetchLimit: Int?
    /// How many models to skip first; nil for none.
    public var fetchOffset: Int?
    /// The properties to fetch; empty for all. The others are not read: a model's optional
    /// properties then decode as nil, and a missing required property is a decoding error.
    public var propertiesToFetch: [PartialKeyPath<T> & Sendable]
    /// Whether the context's unsaved changes are merged in (true unless turned off).
    public var includePendingChanges: Bool

    /// A descriptor of a predicate and sorts.
    public init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) {
        self.predicate = predicate
        self.sortBy = sortBy
        fetchLimit = nil
        fetchOffset = nil
        propertiesToFetch = []
        includePendingChanges = true
    }

    /// The query the descriptor describes, in a context.
    ///
    /// ```swift
    /// let query = try descriptor.query(in: context)   // a Query<Item>
    /// ```
    public func query(in context: ModelContext) throws -> Query<T> {
        var query = Query<T>(context: context)
        if let predicate { query = try query.where(predicate) }
        for descriptor in sortBy { query = try query.order(by: descriptor) }
        if let fetchLimit { query = try query.limit(fetchLimit) }
        if let fetchOffset { query = try query.offset(fetchOffset) }
        if !propertiesToFetch.isEmpty { query = query.select(try propertiesToFetch.map { try T.fieldName(for: $0) }) }
        return query.includesPendingChanges(includePendingChanges)
    }
}

extension ModelContext {
    /// The models a descriptor selects, in its order.
    ///
    /// ```swift
    /// let items = try context.fetch(FetchDescriptor<Item>(predicate: #Predicate { $0.quantity > 1 }))
    /// ```
    public func fetch<T: Queryable>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        try descriptor.query(in: self).all()
    }

    /// The models a descriptor selects (async).
    public func fetch<T: Queryable>(_ descriptor: FetchDescriptor<T>) async throws -> [T] {
        try await descriptor.query(in: self).all()
    }

    /// How many models a descriptor selects (its offset and limit applied).
    ///
    /// ```swift
    /// let count = try context.fetchCount(FetchDescriptor<Item>(predicate: #Predicate { $0.quantity > 1 }))
    /// ```
    public func fetchCount<T: Queryable>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        try descriptor.query(in: self).count()
    }

    /// How many models a descriptor selects (async).
    public func fetchCount<T: Queryable>(_ descriptor: FetchDescriptor<T>) async throws -> Int {
        try await descriptor.query(in: self).count()
    }

    /// The identifiers of the records a descriptor selects, in its order (no model is decoded).
    ///
    /// ```swift
    /// let ids = try context.fetchIdentifiers(FetchDescriptor<Item>())   // [RecordID]
    /// ```
    public func fetchIdentifiers<T: Queryable>(_ descriptor: FetchDescriptor<T>) throws -> [RecordID] {
        try descriptor.query(in: self).select([String]()).records().map(\.recordID)
    }

    /// The identifiers of the records a descriptor selects (async).
    public func fetchIdentifiers<T: Queryable>(_ descriptor: FetchDescriptor<T>) async throws -> [RecordID] {
        try await descriptor.query(in: self).select([String]()).records().map(\.recordID)
    }

    /// Calls `body` with each model a descriptor selects, in its order, reading `batchSize`
    /// records at a time (the store's cursor: memory stays bounded by a batch).
    ///
    /// ```swift
    /// try await context.enumerate(FetchDescriptor<Item>(sortBy: [SortDescriptor(\Item.quantity)])) { item in
    ///     print(item.name)
    /// }
    /// ```
    public func enumerate<T: Queryable>(
        _ descriptor: FetchDescriptor<T>, batchSize: Int = 5_000, _ body: (T) throws -> Void
    ) async throws {
        for try await model in try descriptor.query(in: self).stream(batchSize: batchSize) { try body(model) }
    }

    /// Observes the models a descriptor selects: their list now, then after every change
    /// (``Query/observe()``).
    ///
    /// ```swift
    /// for try await change in try context.observe(FetchDescriptor<Item>(sortBy: [SortDescriptor(\Item.name)])) {
    ///     print(change.models.map(\.name))
    /// }
    /// ```
    public func observe<T: Queryable>(_ descriptor: FetchDescriptor<T>) throws -> ModelObservation<T> {
        try descriptor.query(in: self).observe()
    }
}
