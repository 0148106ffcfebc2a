import Foundation
import PredicateLanguage

extension Store {
    /// The number of records read per round trip when a request sets no batch size.
    package static let defaultFetchReadSize = 1000

    /// A record with only the requested fields.
    package static func projected(_ record: Record, fields: [String]?) -> Record {
        guard let fields else { return record }
        var copy = record
        copy.fields = record.fields.filter { fields.contains($0.key) }
        return copy
    }

    /// A dictionary of the requested fields (all fields when unset), nil values left out.
    package static func dictionary(_ record: Record, fields: [String]?) -> [String: Value] {
        guard let fields else { return record.fields }
        var result: [String: Value] = [:]
        for name in fields {
            let value = record.value(named: name)
            if !value.isNull { result[name] = value }
        }
        return result
    }

    /// The specification of one page of a request: the first page skips `fetchOffset`, later
    /// ones continue after `after`, or, when the sorts walk a relationship and no keyset
    /// position marks a place (``KeysetPosition/marksPlaces(in:)``), skip the `read` records
    /// earlier pages read as well.
    package func fetchPageSpecification(_ request: FetchRequest, after: KeysetPosition?, skipping read: Int = 0, limit: Int?) -> QuerySpecification {
        var specification = checkedSpecification(request.entityName, request.predicate ?? .truePredicate, request.sortDescriptors, request.zoneID, limit)
        specification.includesSubtypes = request.includesSubentities
        if let after {
            specification.after = after
        } else {
            specification.offset = request.fetchOffset + read
        }
        return specification
    }

    /// The specification `count(for:)` asks the engine to count, or nil when the count is of
    /// dictionaries that must be fetched (distinct or grouped).
    private func countSpecification(_ request: FetchRequest) -> QuerySpecification? {
        if request.resultType == .dictionaries, request.returnsDistinctResults || request.isGrouped { return nil }
        var specification = checkedSpecification(request.entityName, request.predicate ?? .truePredicate, [], request.zoneID, nil)
        specification.includesSubtypes = request.includesSubentities
        return specification
    }

    /// The matches counted after `fetchOffset` and `fetchLimit`.
    private static func limited(_ matches: Int, _ request: FetchRequest) -> Int {
        let afterOffset = max(0, matches - request.fetchOffset)
        return request.fetchLimit > 0 ? min(afterOffset, request.fetchLimit) : afterOffset
    }

    /// The request as a plain dictionary fetch, whose results ``count(for:)`` counts.
    private static func dictionaryFetch(_ request: FetchRequest) -> FetchRequest {
        var plain = request
        plain.resultType = .dictionaries
        return plain
    }

    // MARK: Synchronous

    /// Runs a fetch request and returns all of its results.
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "City", predicate: try FormatPredicate(format: "countrycode == 'FR'"))
    /// request.sortDescriptors = [Sort("population", ascending: false)]
    /// request.fetchLimit = 5
    /// let names = try store.fetch(request).records.compactMap { $0["name"]?.stringValue }
    /// ```
    public func fetch(_ request: FetchRequest) throws(RecordStoreError) -> FetchResult {
        try synchronously { try await self.fetch(request) }
    }

    /// How many results a request gives: the matches, after `fetchOffset` and `fetchLimit`.
    ///
    /// ```swift
    /// try store.count(for: FetchRequest(entityName: "City"))   // 34006
    /// ```
    public func count(for request: FetchRequest) throws(RecordStoreError) -> Int {
        try synchronously { try await self.count(for: request) }
    }

    // MARK: Asynchronous

    /// Runs a fetch request and returns all of its results (async).
    ///
    /// ```swift
    /// let cities = try await store.fetch(FetchRequest(entityName: "City")).records
    /// ```
    public func fetch(_ request: FetchRequest) async throws(RecordStoreError) -> FetchResult {
        try FetchValidation.check(request)
        if request.isGrouped { try FetchValidation.check(request, schema: await schema(for: request.entityName)) }
        switch FetchPlan(request, mode: mode) {
        case .count:
            return .count(try await count(for: request))
        case .grouped(let grouped):
            return .dictionaries(grouped.result(try await queryEngine.aggregate(grouped.specification, groupBy: grouped.groupBy, aggregates: request.aggregates)))
        case .paged(var paged):
            while let page = paged.nextPage() {
                paged.receive(try await queryEngine.records(page))
            }
            return paged.result
        }
    }

    /// How many results a request gives (async): the matches, after `fetchOffset` and `fetchLimit`.
    ///
    /// ```swift
    /// try await store.count(for: FetchRequest(entityName: "City"))   // 34006
    /// ```
    public func count(for request: FetchRequest) async throws(RecordStoreError) -> Int {
        try FetchValidation.check(request)
        guard let specification = countSpecification(request) else { return try await fetch(Self.dictionaryFetch(request)).count }
        return Self.limited(try await queryEngine.count(specification), request)
    }

    /// The records of a request in batches of `fetchBatchSize` (100 when 0): memory holds one batch.
    /// Record results only (`propertiesToFetch` limits the fields).
    ///
    /// ```swift
    /// var request = FetchRequest(entityName: "City")
    /// request.fetchBatchSize = 500
    /// for try await batch in store.fetchBatches(request) { print(batch.count) }
    /// ```
    public func fetchBatches(_ request: FetchRequest) -> FetchBatchSequence {
        FetchBatchSequence(store: self, request: request)
    }
}
