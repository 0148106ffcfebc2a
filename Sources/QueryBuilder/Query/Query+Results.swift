import Foundation
import PredicateLanguage
import RecordStore

extension Query {
    /// Every matching model, in the query's order.
    ///
    /// ```swift
    /// let items: [Item] = try Item.query(in: context).where("quantity == 1").order(by: "date").all()
    /// ```
    public func all() throws -> [T] {
        try synchronously { try await self.all() }
    }

    /// The first matching model in the query's order, or nil.
    ///
    /// ```swift
    /// let newest = try Item.query(in: context).order(by: "date", .descending).first()
    /// ```
    public func first() throws -> T? {
        try synchronously { try await self.first() }
    }

    /// How many models match (after the offset, at most the limit).
    ///
    /// ```swift
    /// try Item.query(in: context).where([.quantity: gt(0)]).count()   // 3
    /// ```
    public func count() throws -> Int {
        try synchronously { try await self.count() }
    }

    /// Whether any model matches.
    ///
    /// ```swift
    /// try Item.query(in: context).where("name == %@", "Apple").exists()   // true
    /// ```
    public func exists() throws -> Bool {
        try synchronously { try await self.exists() }
    }

    /// The matching records themselves, with only the ``selectedKeys`` when the query selects fields.
    ///
    /// ```swift
    /// let rows = try Item.query(in: context).select("name").records()
    /// rows.map { $0["name"] }   // [.string("Apple"), ...]
    /// ```
    public func records() throws -> [Record] {
        try synchronously { try await self.records() }
    }

    /// Deletes every match from the store now, in one write (a batch delete, Core Data's
    /// `NSBatchDeleteRequest`); returns how many records it deleted.
    ///
    /// As in Core Data, a batch delete bypasses the context: it matches the stored records only
    /// (not the context's pending inserts and updates, whatever ``includesPendingChanges(_:)``
    /// says), and is not undone by ``ModelContext/rollback()``. What it does to a context that
    /// holds the records: their pending deletions are dropped (they are deleted), and the
    /// context forgets the versions it read of them, so a pending update of one is saved as a
    /// conflict (``QueryError/modelChangedElsewhere(recordType:recordName:)``) and a pending
    /// insert creates the record again. It keeps the change history, deletion rules, live-query
    /// notifications and validation, as `Store.deleteRecords(matching:author:)` does. To delete
    /// through the context instead, with the rest of its pending changes, call
    /// ``ModelContext/delete(_:)`` on each model.
    ///
    /// ```swift
    /// try Item.query(in: context).where([.quantity: 0]).delete()   // 2: deleted now
    /// ```
    @discardableResult
    public func delete() throws -> Int {
        try synchronously { try await self.delete() }
    }

    /// How the store would run the query (SQL, arguments, residual predicate, indexes). The
    /// plan covers the stored records; pending changes are merged in Swift.
    ///
    /// ```swift
    /// print(try Item.query(in: context).where([.quantity: 1]).explain())
    /// ```
    public func explain() throws -> QueryPlan {
        try synchronously { try await self.explain() }
    }

    // MARK: Async versions

    /// Every matching model (async), never blocking a thread while the store reads.
    ///
    /// ```swift
    /// let items = try await Item.query(in: context).where("quantity == 1").all()
    /// ```
    public func all() async throws -> [T] {
        try await decodeAll(await fetchRecords())
    }

    /// The first matching model, or nil (async).
    ///
    /// ```swift
    /// let item = try await Item.query(in: context).first()
    /// ```
    public func first() async throws -> T? {
        try await limit(1).all().first
    }

    /// How many models match (async).
    ///
    /// ```swift
    /// let count = try await Item.query(in: context).count()
    /// ```
    public func count() async throws -> Int {
        try await context.count(for: fetchRequest, includesPendingChanges: includesPendingChanges)
    }

    /// Whether any model matches (async).
    ///
    /// ```swift
    /// let any = try await Item.query(in: context).exists()
    /// ```
    public func exists() async throws -> Bool {
        try await limit(1).count() > 0
    }

    /// The matching records themselves (async), with only the ``selectedKeys`` when the query selects fields.
    ///
    /// ```swift
    /// let rows = try await Item.query(in: context).select("name").records()
    /// ```
    public func records() async throws -> [Record] {
        try await fetchRecords()
    }

    /// Deletes every match from the store now, in one write (async); see the synchronous `delete()`.
    ///
    /// ```swift
    /// try await Item.query(in: context).where([.quantity: 0]).delete()
    /// ```
    @discardableResult
    public func delete() async throws -> Int {
        let result = try await context.store.deleteRecords(matching: batchRequest)
        context.forgetDeleted(result.recordIDs)
        return result.count
    }

    /// How the store would run the query (async).
    ///
    /// ```swift
    /// print(try await Item.query(in: context).where([.quantity: 1]).explain())
    /// ```
    public func explain() async throws -> QueryPlan {
        try await context.store.explain(
            ofType: T.recordType, matching: predicate, sorts: sorts, zone: context.zone,
            limit: fetchLimit.map { $0 + fetchOffset })
    }

    // MARK: Internals


    /// The matching records (async).
    func fetchRecords() async throws -> [Record] {
        try await context.records(for: fetchRequest, includesPendingChanges: includesPendingChanges)
    }

    /// The request of a batch delete or update: the query's matches, in its order and range.
    var batchRequest: FetchRequest {
        var request = fetchRequest
        request.propertiesToFetch = nil
        request.relationshipKeyPathsForPrefetching = []
        return request
    }

    /// The models of records, their prefetched relationships read first (one read per
    /// relationship and level) and attached to their references.
    func decodeAll(_ records: [Record]) async throws -> [T] {
        let decoder = try await modelDecoder(for: records)
        return try records.map { try decoder.decode(T.self, from: $0) }
    }

    /// The decoder of some records' models: with their prefetched relationships when the query prefetches any.
    func modelDecoder(for records: [Record]) async throws -> RecordDecoder {
        guard !prefetchedRelationships.isEmpty else { return RecordDecoder() }
        let related = try await context.store.relatedRecords(of: records, prefetching: prefetchedRelationships)
        return RecordDecoder(prefetched: PrefetchedTargets(related: related, children: PrefetchedKeyPaths(prefetchedRelationships).children))
    }
}
