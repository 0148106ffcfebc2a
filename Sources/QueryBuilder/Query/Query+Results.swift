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

    /// Marks every match for deletion in the context (pending until ``ModelContext/save()-7cric``);
    /// returns how many matched.
    ///
    /// ```swift
    /// try Item.query(in: context).where([.quantity: 0]).delete()
    /// try context.save()
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

    /// Marks every match for deletion in the context (async); returns how many matched.
    ///
    /// ```swift
    /// try await Item.query(in: context).where([.quantity: 0]).delete()
    /// try await context.save()
    /// ```
    @discardableResult
    public func delete() async throws -> Int {
        markDeleted(try await context.records(for: deletionRequest, includesPendingChanges: includesPendingChanges))
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

    /// The request whose matches ``delete()`` marks: whole records.
    private var deletionRequest: FetchRequest {
        var request = fetchRequest
        request.propertiesToFetch = nil
        return request
    }

    /// Registers the deletion of every record; returns how many.
    private func markDeleted(_ matches: [Record]) -> Int {
        for record in matches {
            context.deleteRecord(record.recordID, recordType: record.recordType)
        }
        return matches.count
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
