import Foundation
import PredicateLanguage
import RecordStore

extension ModelContext {
    /// The records a request matches. Without pending changes of its type (or when they are not
    /// included) the store does everything: predicate, sorts, offset, limit and fields. Otherwise
    /// the store's matches are merged in Swift with this context's pending changes (pending
    /// inserts and updates that match are in, in sort order; pending deletes are out), then
    /// the offset, the limit and the fields are applied.
    func records(for request: FetchRequest, includesPendingChanges: Bool) throws -> [Record] {
        let pending = includesPendingChanges ? pendingChanges(ofType: request.entityName) : []
        if pending.isEmpty {
            let fetched = try store.fetch(request).records
            remember(fetched)
            return fetched
        }
        var stored = request
        stored.fetchOffset = 0
        stored.fetchLimit = request.fetchLimit > 0 ? request.fetchOffset + request.fetchLimit + pending.count : 0
        stored.propertiesToFetch = nil
        let fetched = try store.fetch(stored).records
        remember(fetched)
        let pendingIDs = Set(pending.map(\.0))
        var merged = fetched.filter { !pendingIDs.contains($0.recordID) }
        merged += try matchingPendingRecords(pending, predicate: request.predicate ?? .truePredicate)
        merged.sort(by: RecordOrdering(sorts: request.sortDescriptors).precedes)
        var paged = Array(merged.dropFirst(request.fetchOffset))
        if request.fetchLimit > 0, paged.count > request.fetchLimit { paged.removeSubrange(request.fetchLimit...) }
        guard let fields = request.propertiesToFetch else { return paged }
        return paged.map { Self.projected($0, fields: fields) }
    }

    /// How many records a request matches, with the offset and limit applied: the store's count,
    /// corrected for this context's pending changes when included.
    func count(for request: FetchRequest, includesPendingChanges: Bool) throws -> Int {
        let pending = includesPendingChanges ? pendingChanges(ofType: request.entityName) : []
        if pending.isEmpty { return try store.count(for: request) }
        let predicate = request.predicate ?? .truePredicate
        var total = try store.count(ofType: request.entityName, matching: predicate, zone: zone)
        let names = pending.map { Value.string($0.0.recordName) }
        let storedPending = FormatPredicate.and([
            predicate,
            .comparison(ComparisonPredicate(.keyPath("recordName"), .in, .constant(.list(names)))),
        ])
        total -= try store.count(ofType: request.entityName, matching: storedPending, zone: zone)
        total += try matchingPendingRecords(pending, predicate: predicate).count
        let afterOffset = max(0, total - request.fetchOffset)
        return request.fetchLimit > 0 ? min(request.fetchLimit, afterOffset) : afterOffset
    }

    /// The pending inserts and updates that match a predicate, in the order the changes were made.
    func matchingPendingRecords(_ pending: [(RecordID, PendingChange)], predicate: FormatPredicate) throws -> [Record] {
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
