import Foundation
import PredicateLanguage

/// One page as the engines return it, before the cursor is signed.
///
/// See the "Concepts" article of RecordStoreCore for how it differs from `QueryBatch`,
/// `QueryOperation`, `QueryAnswer` and `ModifyOperation`.
package struct QueryPage: Sendable {
    package var records: [Record]
    package var next: CursorPayload.ResumePoint?
}

/// One page of a query to read: the engine's specification (`limit + 1` records, so that a
/// cursor is made only when more remain) and what turns its records into a ``QueryPage``.
package struct PageRead {
    package let specification: QuerySpecification
    package let query: RecordQuery
    package let limit: Int
    package let offset: Int
    package let keysetMode: Bool
    package let desiredKeys: [String]?

    /// The page the records read make.
    package func page(_ read: [Record]) -> QueryPage {
        var records = read
        var next: CursorPayload.ResumePoint?
        if records.count > limit {
            records.removeSubrange(limit...)
            next = keysetMode ? .keyset(KeysetPosition(of: records[limit - 1], sorts: query.sorts)) : .offset(offset + limit)
        }
        if let desiredKeys {
            let wanted = Set(desiredKeys)
            for index in records.indices {
                records[index].fields = records[index].fields.filter { wanted.contains($0.key) }
            }
        }
        return QueryPage(records: records, next: next)
    }
}

extension Store {
    package var cursorSigner: CursorSigner { CursorSigner(secret: engine.secret) }

    /// What to read for one page of a query.
    package func pageRead(
        _ query: RecordQuery, zone: ZoneID, resume: CursorPayload.ResumePoint?, resultsLimit: Int,
        desiredKeys: [String]?, mode: QueryCursor.Mode, costLimits: QueryCostLimits = .none
    ) -> PageRead {
        // One below Int.max, so reading `limit + 1` records cannot overflow.
        let limit = resultsLimit > 0 ? min(resultsLimit, Int.max - 1) : QueryOperation.defaultResultsLimit
        var specification = checkedSpecification(query.recordType, query.predicate, query.sorts, zone, limit + 1)
        specification.costLimits = costLimits
        var offset = 0
        // A sort through a relationship pages by offset (``KeysetPosition/marksPlaces(in:)``).
        var keysetMode = mode == .keyset && KeysetPosition.marksPlaces(in: query.sorts)
        switch resume {
        case .keyset(let position)?:
            specification.after = position
            keysetMode = true
        case .offset(let skipped)?:
            specification.offset = skipped
            offset = skipped
            keysetMode = false
        case nil:
            break
        }
        return PageRead(specification: specification, query: query, limit: limit, offset: offset, keysetMode: keysetMode, desiredKeys: desiredKeys)
    }

    /// Runs one page of a query (async).
    package func page(
        _ query: RecordQuery, zone: ZoneID, resume: CursorPayload.ResumePoint?, resultsLimit: Int,
        desiredKeys: [String]?, mode: QueryCursor.Mode, costLimits: QueryCostLimits = .none
    ) async throws(RecordStoreError) -> QueryPage {
        let read = pageRead(query, zone: zone, resume: resume, resultsLimit: resultsLimit, desiredKeys: desiredKeys, mode: mode, costLimits: costLimits)
        return read.page(try await queryEngine.records(read.specification))
    }

    private func batch(_ page: QueryPage, query: RecordQuery, zone: ZoneID) -> QueryBatch {
        let cursor = page.next.map {
            cursorSigner.sign(CursorPayload(storeIdentifier: engine.secret.storeIdentifier, zone: zone, query: query, resumePoint: $0))
        }
        return QueryBatch(records: page.records, cursor: cursor)
    }

    /// The first batch of a query, synchronously (``records(matching:inZone:desiredKeys:resultsLimit:cursorMode:costLimits:)`` is the `async` form).
    ///
    /// ```swift
    /// let batch = try store.firstBatch(matching: query, resultsLimit: 100)
    /// ```
    public func firstBatch(
        matching query: RecordQuery, inZone zone: ZoneID = .default, desiredKeys: [String]? = nil,
        resultsLimit: Int = QueryOperation.maximumResults, cursorMode: QueryCursor.Mode = .keyset, costLimits: QueryCostLimits = .none
    ) throws(RecordStoreError) -> QueryBatch {
        try synchronously {
            try await self.records(
                matching: query, inZone: zone, desiredKeys: desiredKeys, resultsLimit: resultsLimit, cursorMode: cursorMode, costLimits: costLimits)
        }
    }

    /// The batch after a cursor, synchronously (``records(continuingMatchFrom:desiredKeys:resultsLimit:costLimits:)`` is the `async` form).
    ///
    /// ```swift
    /// let next = try store.nextBatch(continuingMatchFrom: cursor)
    /// ```
    public func nextBatch(
        continuingMatchFrom cursor: QueryCursor, desiredKeys: [String]? = nil, resultsLimit: Int = QueryOperation.maximumResults,
        costLimits: QueryCostLimits = .none
    ) throws(RecordStoreError) -> QueryBatch {
        try synchronously {
            try await self.records(continuingMatchFrom: cursor, desiredKeys: desiredKeys, resultsLimit: resultsLimit, costLimits: costLimits)
        }
    }

    /// The query and zone a cursor continues, after checking its signature and store.
    ///
    /// ```swift
    /// let (query, zone) = try store.query(of: cursor)
    /// ```
    public func query(of cursor: QueryCursor) throws(RecordStoreError) -> (query: RecordQuery, zone: ZoneID) {
        let payload = try cursorSigner.open(cursor)
        return (payload.query, payload.zone)
    }

    /// Checks that a cursor is this store's and continues this query in this zone; throws
    /// ``RecordStoreError/invalidCursor(_:)`` naming the difference otherwise.
    ///
    /// ```swift
    /// try store.checkCursor(cursor, continues: query, inZone: .default)
    /// ```
    public func checkCursor(_ cursor: QueryCursor, continues query: RecordQuery, inZone zone: ZoneID = .default) throws(RecordStoreError) {
        let payload = try cursorSigner.open(cursor)
        if payload.zone != zone {
            throw .invalidCursor(.zoneMismatch(cursor: payload.zone.zoneName, given: zone.zoneName))
        }
        if payload.query.fingerprint != query.fingerprint {
            throw .invalidCursor(.queryMismatch(cursor: payload.query.description, given: query.description))
        }
    }

    /// The first batch of a query and a cursor when more remain: `CKDatabase.records(matching:inZoneWith:desiredKeys:resultsLimit:)`.
    ///
    /// `resultsLimit` 0 (``QueryOperation/maximumResults``) means the default batch of
    /// ``QueryOperation/defaultResultsLimit`` (100) records. `desiredKeys` nil returns every
    /// field, an empty list only the metadata. `costLimits` bounds the work of testing the
    /// predicate on the records (``QueryCostLimits``; none by default): past them the call throws
    /// ``RecordStoreError/queryTooExpensive(_:)``.
    ///
    /// ```swift
    /// let query = try RecordQuery(recordType: "City", predicate: .truePredicate, sorts: [Sort("population", ascending: false)])
    /// var batch = try await store.records(matching: query, resultsLimit: 100)
    /// while let cursor = batch.cursor {
    ///     batch = try await store.records(continuingMatchFrom: cursor, resultsLimit: 100)
    /// }
    /// ```
    public func records(
        matching query: RecordQuery, inZone zone: ZoneID = .default, desiredKeys: [String]? = nil,
        resultsLimit: Int = QueryOperation.maximumResults, cursorMode: QueryCursor.Mode = .keyset, costLimits: QueryCostLimits = .none
    ) async throws(RecordStoreError) -> QueryBatch {
        let page = try await page(
            query, zone: zone, resume: nil, resultsLimit: resultsLimit, desiredKeys: desiredKeys, mode: cursorMode, costLimits: costLimits)
        return batch(page, query: query, zone: zone)
    }

    /// The next batch after a cursor (keyset or offset, as the cursor was made), its predicate's
    /// evaluation bounded by `costLimits` as ``records(matching:inZone:desiredKeys:resultsLimit:cursorMode:costLimits:)`` says.
    ///
    /// ```swift
    /// let next = try await store.records(continuingMatchFrom: cursor, desiredKeys: ["name"])
    /// ```
    public func records(
        continuingMatchFrom cursor: QueryCursor, desiredKeys: [String]? = nil, resultsLimit: Int = QueryOperation.maximumResults,
        costLimits: QueryCostLimits = .none
    ) async throws(RecordStoreError) -> QueryBatch {
        let payload = try cursorSigner.open(cursor)
        let page = try await page(
            payload.query, zone: payload.zone, resume: payload.resumePoint, resultsLimit: resultsLimit, desiredKeys: desiredKeys, mode: .keyset,
            costLimits: costLimits)
        return batch(page, query: payload.query, zone: payload.zone)
    }

    /// Every record of a query, read in keyset batches of `batchSize`: memory holds one batch at a time.
    ///
    /// ```swift
    /// for try await city in store.stream(matching: query, batchSize: 500) { print(city["name"] ?? .null) }
    /// ```
    public func stream(
        matching query: RecordQuery, inZone zone: ZoneID = .default, desiredKeys: [String]? = nil,
        batchSize: Int = QueryOperation.defaultResultsLimit
    ) -> RecordStream {
        RecordStream(store: self, query: query, zone: zone, desiredKeys: desiredKeys, batchSize: batchSize)
    }

    /// Starts a query operation in the background; its callbacks report the results.
    ///
    /// ```swift
    /// let operation = QueryOperation(query: query)
    /// operation.recordMatchedBlock = { id, result in print(id) }
    /// operation.queryResultBlock = { result in print(result) }
    /// store.add(operation)
    /// await operation.waitUntilFinished()
    /// ```
    public func add(_ operation: QueryOperation) {
        operation.start(on: self)
    }
}
