import PredicateLanguage
import RecordStore

/// Aggregates run in the store over a ``Query/fetchRequest`` with aggregate ``FetchProperty``s:
/// SQL (`SUM`, `AVG`, `MIN`, `MAX`, `COUNT ... GROUP BY`) on the SQLite engine, Swift on the
/// memory engine, with the same results.
///
/// They cover saved records only, as Core Data's dictionary fetches do (Core Data ignores
/// `includesPendingChanges` for the dictionary result type). Rather than answer silently without
/// the pending changes a query otherwise shows, they throw
/// ``QueryError/pendingChangesNotAggregated(recordType:pendingChangeCount:)`` when the context
/// holds pending changes of the model's type: `save()` first, or ask for the saved records
/// explicitly with `.includesPendingChanges(false)`.
extension Query {
    /// The sum of a numeric field over every match: an integer for integer fields, a double when a
    /// value is a double; `.int(0)` when nothing matches (or no match has a value), as Core Data's
    /// `@sum`. Throws for a non-numeric field, a query with a limit or offset, or pending changes.
    ///
    /// ```swift
    /// try Item.query(in: context).where([.department: "Fruit"]).sum("quantity")   // .int(3)
    /// ```
    public func sum(_ key: String) throws -> Value {
        try synchronously { try await self.sum(key) }
    }

    /// The average of a numeric field over the matches that have a value; nil when there are none.
    ///
    /// ```swift
    /// try Item.query(in: context).average("quantity")   // Optional(2.4)
    /// ```
    public func average(_ key: String) throws -> Double? {
        try synchronously { try await self.average(key) }
    }

    /// The smallest value of a field over the matches (numbers by value, strings by code point,
    /// dates in time); `.null` when no match has a value (`Value` has its own nil, so the result
    /// is not optional: `min("quantity") == nil` reads as expected).
    ///
    /// ```swift
    /// try Item.query(in: context).min("quantity")   // .int(1)
    /// ```
    public func min(_ key: String) throws -> Value {
        try synchronously { try await self.min(key) }
    }

    /// The largest value of a field over the matches; `.null` when no match has a value.
    ///
    /// ```swift
    /// try Item.query(in: context).max("quantity")   // .int(4)
    /// ```
    public func max(_ key: String) throws -> Value {
        try synchronously { try await self.max(key) }
    }

    /// The matches grouped by the values of some fields, with how many are in each group. Groups are
    /// in ascending order of their values (nil first), unless the query sorts on a grouped field;
    /// `.limit` and `.offset` page through the groups. No match, no group.
    ///
    /// ```swift
    /// try Item.query(in: context).group(by: "department")
    /// // [GroupCount(values: [.null], count: 1), GroupCount(values: ["Fruit"], count: 2), ...]
    /// ```
    public func group(by keys: String...) throws -> [GroupCount] {
        try group(by: keys)
    }

    /// The matches grouped by the values of a list of fields, with how many are in each group.
    ///
    /// ```swift
    /// try Item.query(in: context).order(by: "department", .descending).group(by: ["department"])
    /// ```
    public func group(by keys: [String]) throws -> [GroupCount] {
        try synchronously { try await self.group(by: keys) }
    }

    // MARK: Async versions

    /// The sum of a numeric field over every match (async); see the synchronous `sum(_:)`.
    ///
    /// ```swift
    /// let total = try await Item.query(in: context).sum("quantity")   // .int(12)
    /// ```
    public func sum(_ key: String) async throws -> Value {
        let total = try await aggregate(.sum, of: key)
        return total.isNull ? .int(0) : total
    }

    /// The average of a numeric field over the matches that have a value (async).
    ///
    /// ```swift
    /// let mean = try await Item.query(in: context).average("quantity")   // Optional(2.4)
    /// ```
    public func average(_ key: String) async throws -> Double? {
        try await aggregate(.average, of: key).numericValue
    }

    /// The smallest value of a field over the matches (async).
    ///
    /// ```swift
    /// let least = try await Item.query(in: context).min("quantity")   // .int(1)
    /// ```
    public func min(_ key: String) async throws -> Value {
        try await aggregate(.min, of: key)
    }

    /// The largest value of a field over the matches (async).
    ///
    /// ```swift
    /// let most = try await Item.query(in: context).max("quantity")   // .int(4)
    /// ```
    public func max(_ key: String) async throws -> Value {
        try await aggregate(.max, of: key)
    }

    /// The matches grouped by the values of some fields, with counts (async).
    ///
    /// ```swift
    /// let groups = try await Item.query(in: context).group(by: "department")
    /// ```
    public func group(by keys: String...) async throws -> [GroupCount] {
        try await group(by: keys)
    }

    /// The matches grouped by the values of a list of fields, with counts (async).
    ///
    /// ```swift
    /// let groups = try await Item.query(in: context).group(by: ["department"])
    /// ```
    public func group(by keys: [String]) async throws -> [GroupCount] {
        try checkAggregatable()
        let request = groupRequest(keys)
        let rows = try await ModelContext.emptyForNewType(T.recordType, empty: []) { () async throws(RecordStoreError) in
            try await context.store.fetch(request).dictionaries
        }
        return Self.groupCounts(rows, keys: keys)
    }

    // MARK: Internals


    /// One aggregate of a field over every match (async).
    func aggregate(_ function: AggregateProperty.Function, of key: String) async throws -> Value {
        let request = try aggregateRequest(function, of: key)
        let rows = try await ModelContext.emptyForNewType(T.recordType, empty: []) { () async throws(RecordStoreError) in
            try await context.store.fetch(request).dictionaries
        }
        return rows.first?[Self.aggregateName] ?? .null
    }

    /// The name of the aggregate in the dictionary an aggregate request returns.
    private static var aggregateName: String { "value" }

    /// The name of the count in the dictionaries a group request returns.
    private static var countName: String { "@count" }

    /// The dictionary request of one aggregate over every match; throws for a paged query or
    /// pending changes the store would leave out.
    private func aggregateRequest(_ function: AggregateProperty.Function, of key: String) throws -> FetchRequest {
        try checkAggregatable()
        guard fetchLimit == nil, fetchOffset == 0 else {
            throw QueryError.aggregateOfPagedQuery(function: function.rawValue)
        }
        var request = fetchRequest
        request.resultType = .dictionaries
        request.sortDescriptors = []
        request.propertiesToFetch = [.aggregate(AggregateProperty(name: Self.aggregateName, function: function, key: key))]
        return request
    }

    /// The dictionary request counting the matches in each group of some fields' values.
    private func groupRequest(_ keys: [String]) -> FetchRequest {
        var request = fetchRequest
        request.resultType = .dictionaries
        request.propertiesToGroupBy = keys
        request.propertiesToFetch = keys.map(FetchProperty.field)
            + [.aggregate(AggregateProperty(name: Self.countName, function: .count, key: "recordName"))]
        return request
    }

    /// The groups of a group request's rows.
    private static func groupCounts(_ rows: [[String: Value]], keys: [String]) -> [GroupCount] {
        rows.map { row in
            GroupCount(values: keys.map { row[$0] ?? .null }, count: Int(row[countName]?.numericValue ?? 0))
        }
    }

    /// Throws when the store's answer would leave out pending changes the query includes.
    private func checkAggregatable() throws {
        guard includesPendingChanges else { return }
        let pending = context.pendingChanges(ofType: T.recordType).count
        if pending > 0 {
            throw QueryError.pendingChangesNotAggregated(recordType: T.recordType, pendingChangeCount: pending)
        }
    }
}
