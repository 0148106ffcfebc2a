import Foundation
import PredicateLanguage
import RecordStore
@_spi(StorageEngine) import RecordStoreCore

/// How a context answers a fetch request when pending changes must be merged with the store's
/// matches: what to ask the store, and how to merge its answer. The synchronous reads run the
/// asynchronous ones, so both share it.
struct PendingMerge {
    let request: FetchRequest
    let pending: [(RecordID, PendingChange)]

    /// The request sent to the store: every stored match that could land on the page (the offset
    /// and limit widened by the pending count, all fields, since pending records are projected after).
    var storedRequest: FetchRequest {
        var stored = request
        stored.fetchOffset = 0
        stored.fetchLimit = request.fetchLimit > 0 ? request.fetchOffset + request.fetchLimit + pending.count : 0
        stored.propertiesToFetch = nil
        return stored
    }

    /// The page: stored matches without the records changed in the context, plus the pending
    /// inserts and updates that match, in sort order, then the offset, limit and fields applied.
    func merged(with fetched: [Record], context: ModelContext) async throws -> [Record] {
        let pendingIDs = Set(pending.map(\.0))
        var merged = fetched.filter { !pendingIDs.contains($0.recordID) }
        merged += try await context.matchingPendingRecords(pending, predicate: request.predicate ?? .truePredicate)
        merged.sort(by: RecordOrdering(sorts: request.sortDescriptors).precedes)
        return Self.page(of: merged, request: request)
    }

    /// A request's page of matches already in order: its offset skipped, at most its limit, only
    /// its fields.
    static func page(of sorted: [Record], request: FetchRequest) -> [Record] {
        var paged = Array(sorted.dropFirst(request.fetchOffset))
        if request.fetchLimit > 0, paged.count > request.fetchLimit { paged.removeSubrange(request.fetchLimit...) }
        guard let fields = request.propertiesToFetch else { return paged }
        return paged.map { ModelContext.projected($0, fields: fields) }
    }

    /// The predicate counting the stored records that pending changes replace.
    var storedPendingPredicate: FormatPredicate {
        let names = pending.map { Value.string($0.0.recordName) }
        return .and([
            request.predicate ?? .truePredicate,
            .comparison(ComparisonPredicate(.keyPath("recordName"), .in, .constant(.list(names)))),
        ])
    }

    /// The count with the offset and limit applied, from the store's count of all matches and of
    /// the matches that pending changes replace.
    func count(storedMatches: Int, storedReplaced: Int, context: ModelContext) async throws -> Int {
        let pendingMatches = try await context.matchingPendingRecords(pending, predicate: request.predicate ?? .truePredicate).count
        let total = storedMatches - storedReplaced + pendingMatches
        let afterOffset = max(0, total - request.fetchOffset)
        return request.fetchLimit > 0 ? min(request.fetchLimit, afterOffset) : afterOffset
    }
}

extension ModelContext {
    /// The records a request matches. Without pending changes of its type (or when they are not
    /// included) the store does everything: predicate, sorts, offset, limit and fields. Otherwise
    /// the store's matches are merged in Swift with this context's pending changes (pending
    /// inserts and updates that match are in, in sort order; pending deletes are out), then
    /// the offset, the limit and the fields are applied.
    func records(for request: FetchRequest, includesPendingChanges: Bool) async throws -> [Record] {
        guard let merge = pendingMerge(for: request, includesPendingChanges: includesPendingChanges) else {
            return remembering(try await storedRecords(request))
        }
        return try await merge.merged(with: remembering(try await storedRecords(merge.storedRequest)), context: self)
    }

    /// The stored records a request matches; none when the store has never had the record type
    /// (a model whose records were never saved has none, which is not an error).
    func storedRecords(_ request: FetchRequest) async throws -> [Record] {
        try await Self.emptyForNewType(request.entityName, empty: []) { () async throws(RecordStoreError) in
            try await store.fetch(request).records
        }
    }

    /// Runs a store read, answering `empty` when the store has never had the record type.
    static func emptyForNewType<Answer>(
        _ recordType: String, empty: Answer, _ read: () async throws(RecordStoreError) -> Answer
    ) async throws(RecordStoreError) -> Answer {
        do {
            return try await read()
        } catch .unknownRecordType(let name, _) where name == recordType {
            return empty
        }
    }

    /// How many records a request matches, with the offset and limit applied: the store's count,
    /// corrected for this context's pending changes when included.
    func count(for request: FetchRequest, includesPendingChanges: Bool) async throws -> Int {
        let type = request.entityName
        guard let merge = pendingMerge(for: request, includesPendingChanges: includesPendingChanges) else {
            return try await Self.emptyForNewType(type, empty: 0) { () async throws(RecordStoreError) in try await store.count(for: request) }
        }
        let predicate = request.predicate ?? .truePredicate
        let storedMatches = try await Self.emptyForNewType(type, empty: 0) { () async throws(RecordStoreError) in
            try await store.count(ofType: type, matching: predicate, zone: zone)
        }
        let storedReplaced = try await Self.emptyForNewType(type, empty: 0) { () async throws(RecordStoreError) in
            try await store.count(ofType: type, matching: merge.storedPendingPredicate, zone: zone)
        }
        return try await merge.count(storedMatches: storedMatches, storedReplaced: storedReplaced, context: self)
    }

    /// The merge a request needs, or nil when the store answers it alone.
    private func pendingMerge(for request: FetchRequest, includesPendingChanges: Bool) -> PendingMerge? {
        let pending = includesPendingChanges ? pendingChanges(ofType: request.entityName) : []
        return pending.isEmpty ? nil : PendingMerge(request: request, pending: pending)
    }

    /// Remembers the change tags of fetched records and hands them back.
    private func remembering(_ records: [Record]) -> [Record] {
        remember(records)
        return records
    }

    /// The pending inserts and updates that match a predicate, in the order the changes were made.
    ///
    /// The store tests them, with the evaluator it tests stored records with, so a pending model
    /// matches exactly when it would once saved: `self CONTAINS "word"` reads the fields that will
    /// be searchable. A predicate that walks relationships (`customer.name == "Alice"`) reads the
    /// related records with this context's pending changes laid over the store's
    /// (``RecordOverlay``): a pending order reaches a pending customer, and a deleted one is gone.
    func matchingPendingRecords(_ pending: [(RecordID, PendingChange)], predicate: FormatPredicate) async throws -> [Record] {
        let records = pending.compactMap { $0.1.savedRecord }
        let overlay = RelationshipQuery.mayWalk(predicate) ? pendingOverlay() : RecordOverlay()
        return try await store.records(records, matching: predicate, overlaying: overlay)
    }

    /// A record with only some fields (its metadata kept), as the store projects `propertiesToFetch`.
    static func projected(_ record: Record, fields: [FetchProperty]) -> Record {
        let names = Set(fields.compactMap { property -> String? in
            if case .field(let name) = property { return name }
            return nil
        })
        var copy = record
        copy.fields = record.fields.filter { names.contains($0.key) }
        return copy
    }
}
