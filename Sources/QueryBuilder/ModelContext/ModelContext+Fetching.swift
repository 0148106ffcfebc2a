import Foundation
import PredicateLanguage
import RecordStore

/// What a query asks the context for: a record type, a predicate, sorts and paging.
struct RecordRequest: Sendable {
    var recordType: String
    var predicate: FormatPredicate
    var sorts: [Sort]
    var limit: Int?
    var offset: Int
    var includesPendingChanges: Bool
}

extension ModelContext {
    /// The records a request matches: the store's, merged with this context's pending changes
    /// when the request includes them (pending inserts and updates that match are in, in sort
    /// order; pending deletes are out), then the offset and limit.
    func records(for request: RecordRequest) throws -> [Record] {
        let pending = request.includesPendingChanges ? pendingChanges(ofType: request.recordType) : []
        if pending.isEmpty {
            let fetched = try store.records(
                ofType: request.recordType, matching: request.predicate, sorts: request.sorts, zone: zone,
                limit: request.limit.map { $0 + request.offset })
            remember(fetched)
            return Array(fetched.dropFirst(request.offset))
        }
        let pendingIDs = Set(pending.map(\.0))
        let fetched = try store.records(
            ofType: request.recordType, matching: request.predicate, sorts: request.sorts, zone: zone,
            limit: request.limit.map { $0 + request.offset + pendingIDs.count })
        remember(fetched)
        var merged = fetched.filter { !pendingIDs.contains($0.recordID) }
        merged += try matchingPendingRecords(pending, predicate: request.predicate)
        let ordering = MergedRecordOrdering(sorts: request.sorts)
        merged.sort(by: ordering.precedes)
        let paged = merged.dropFirst(request.offset)
        if let limit = request.limit { return Array(paged.prefix(limit)) }
        return Array(paged)
    }

    /// How many records a request matches, with the offset and limit applied.
    func count(for request: RecordRequest) throws -> Int {
        let pending = request.includesPendingChanges ? pendingChanges(ofType: request.recordType) : []
        var total = try store.count(ofType: request.recordType, matching: request.predicate, zone: zone)
        if !pending.isEmpty {
            let names = pending.map { Value.string($0.0.recordName) }
            let storedPending = FormatPredicate.and([
                request.predicate,
                .comparison(ComparisonPredicate(.keyPath("recordName"), .in, .constant(.list(names)))),
            ])
            total -= try store.count(ofType: request.recordType, matching: storedPending, zone: zone)
            total += try matchingPendingRecords(pending, predicate: request.predicate).count
        }
        let afterOffset = max(0, total - request.offset)
        return request.limit.map { min($0, afterOffset) } ?? afterOffset
    }

    /// The pending inserts and updates that match a predicate.
    private func matchingPendingRecords(_ pending: [(RecordID, PendingChange)], predicate: FormatPredicate) throws -> [Record] {
        let compiled = try CompiledPredicate(predicate)
        var matches: [Record] = []
        for (_, change) in pending {
            guard let record = change.savedRecord else { continue }
            if try compiled.evaluate(PendingRecordObject(record: record)) {
                matches.append(record)
            }
        }
        return matches
    }

    /// The model of a record, or nil when the context holds a pending delete of it; pending
    /// inserts and updates come first.
    func record(named recordName: String, ofType recordType: String, includesPendingChanges: Bool) throws -> Record? {
        let id = RecordID(recordName: recordName, zoneID: zone)
        if includesPendingChanges, let change = pendingChanges(ofType: recordType).first(where: { $0.0 == id })?.1 {
            return change.savedRecord
        }
        guard let record = try store.record(for: id), record.recordType == recordType else { return nil }
        remember([record])
        return record
    }
}
