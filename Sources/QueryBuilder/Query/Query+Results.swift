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
        try decodeAll(fetchRecords())
    }

    /// The first matching model in the query's order, or nil.
    ///
    /// ```swift
    /// let newest = try Item.query(in: context).order(by: "date", .descending).first()
    /// ```
    public func first() throws -> T? {
        try limit(1).all().first
    }

    /// How many models match (after the offset, at most the limit).
    ///
    /// ```swift
    /// try Item.query(in: context).where([.quantity: gt(0)]).count()   // 3
    /// ```
    public func count() throws -> Int {
        try context.count(for: fetchRequest, includesPendingChanges: includesPendingChanges)
    }

    /// Whether any model matches.
    ///
    /// ```swift
    /// try Item.query(in: context).where("name == %@", "Apple").exists()   // true
    /// ```
    public func exists() throws -> Bool {
        try limit(1).count() > 0
    }

    /// The matching records themselves, with only the ``selectedKeys`` when the query selects fields.
    ///
    /// ```swift
    /// let rows = try Item.query(in: context).select("name").records()
    /// rows.map { $0["name"] }   // [.string("Apple"), ...]
    /// ```
    public func records() throws -> [Record] {
        try fetchRecords()
    }

    /// Marks every match for deletion in the context (pending until ``ModelContext/save()``);
    /// returns how many matched.
    ///
    /// ```swift
    /// try Item.query(in: context).where([.quantity: 0]).delete()
    /// try context.save()
    /// ```
    @discardableResult
    public func delete() throws -> Int {
        var request = fetchRequest
        request.propertiesToFetch = nil
        let matches = try context.records(for: request, includesPendingChanges: includesPendingChanges)
        for record in matches {
            context.deleteRecord(record.recordID, recordType: record.recordType)
        }
        return matches.count
    }

    /// How the store would run the query (SQL, arguments, residual predicate, indexes). The
    /// plan covers the stored records; pending changes are merged in Swift.
    ///
    /// ```swift
    /// print(try Item.query(in: context).where([.quantity: 1]).explain())
    /// ```
    public func explain() throws -> QueryPlan {
        try context.store.explain(
            ofType: T.recordType, matching: predicate, sorts: sorts, zone: context.zone,
            limit: fetchLimit.map { $0 + fetchOffset })
    }

    // MARK: Async versions

    /// Every matching model (async).
    ///
    /// ```swift
    /// let items = try await Item.query(in: context).where("quantity == 1").all()
    /// ```
    public func all() async throws -> [T] {
        try decodeAll(fetchRecords())
    }

    /// The first matching model, or nil (async).
    ///
    /// ```swift
    /// let item = try await Item.query(in: context).first()
    /// ```
    public func first() async throws -> T? {
        let limited = try limit(1)
        return try limited.decodeAll(limited.fetchRecords()).first
    }

    /// How many models match (async).
    ///
    /// ```swift
    /// let count = try await Item.query(in: context).count()
    /// ```
    public func count() async throws -> Int {
        try context.count(for: fetchRequest, includesPendingChanges: includesPendingChanges)
    }

    /// Whether any model matches (async).
    ///
    /// ```swift
    /// let any = try await Item.query(in: context).exists()
    /// ```
    public func exists() async throws -> Bool {
        try await limit(1).count() > 0
    }

    // MARK: Internals

    /// The matching records, with only the selected fields: offset, limit and fields are the
    /// store's work unless pending changes must be merged in.
    func fetchRecords() throws -> [Record] {
        try context.records(for: fetchRequest, includesPendingChanges: includesPendingChanges)
    }

    func decodeAll(_ records: [Record]) throws -> [T] {
        let decoder = RecordDecoder()
        return try records.map { try decoder.decode(T.self, from: $0) }
    }
}
