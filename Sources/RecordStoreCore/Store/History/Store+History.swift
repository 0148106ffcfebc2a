import Foundation

/// The change history: what changed in a zone, or which zones changed, since a token (CloudKit's
/// `CKFetchRecordZoneChangesOperation` and `CKFetchDatabaseChangesOperation`).
///
/// Every save and delete advances the store's change position; deletions leave tombstones,
/// kept for ``historyRetention``. A changes call costs what changed since its token, not the
/// size of the zone: the history is indexed by position.
extension Store {
    /// How long tombstones of deleted records and zones are kept (30 days unless set). A token
    /// older than the history kept then is refused with ``RecordStoreError/changeTokenExpired(zone:)``.
    ///
    /// ```swift
    /// store.historyRetention = .seconds(7 * 24 * 3600)
    /// ```
    public var historyRetention: Duration {
        get { historyUpkeep.withLock { $0.retention } }
        set { historyUpkeep.withLock { $0.retention = newValue } }
    }

    /// What changed in a zone since a token: records saved (each once, latest state), records
    /// deleted, the next token, and whether more changes wait. Without a token, every record of
    /// the zone (and the tombstones still kept).
    ///
    /// ```swift
    /// let first = try store.changes(in: .default, limit: 500)
    /// let next = try store.changes(in: .default, since: first.token)
    /// ```
    ///
    /// - Parameters:
    ///   - zone: the zone (``RecordStoreError/zoneNotFound(_:)`` when it does not exist).
    ///   - token: where the last call ended; nil for the start of the history.
    ///   - limit: the most changes (saved and deleted together) to return; ``ZoneChanges/defaultLimit`` when 0 or less.
    ///   - desiredKeys: the fields the records carry; nil for all.
    ///   - recordTypes: only changes of these record types; nil for all.
    public func changes(
        in zone: ZoneID = .default, since token: ChangeToken? = nil, limit: Int = ZoneChanges.defaultLimit,
        desiredKeys: [String]? = nil, recordTypes: [String]? = nil
    ) throws(RecordStoreError) -> ZoneChanges {
        try synchronously { try await self.changes(in: zone, since: token, limit: limit, desiredKeys: desiredKeys, recordTypes: recordTypes) }
    }

    /// What changed in a zone since a token (async); see the synchronous form.
    ///
    /// ```swift
    /// let changes = try await store.changes(in: notes, since: savedToken, limit: 200)
    /// ```
    public func changes(
        in zone: ZoneID = .default, since token: ChangeToken? = nil, limit: Int = ZoneChanges.defaultLimit,
        desiredKeys: [String]? = nil, recordTypes: [String]? = nil
    ) async throws(RecordStoreError) -> ZoneChanges {
        guard !NulCharacter.isIn(zone.zoneName) else { throw .zoneNotFound(zone) }
        let limit = limit > 0 ? min(limit, Int.max - 1) : ZoneChanges.defaultLimit
        let after = try token.map { token throws(RecordStoreError) in try place(of: token, scope: .zone(zone)) } ?? .start
        try await pruneHistory(now: Date(), onlyWhenDue: true)
        let page = try await metricsSlot.measure(.history) { () async throws(RecordStoreError) in
            try await engine.history(of: zone, after: after, limit: limit, recordTypes: recordTypes.map(Set.init))
        }
        if token != nil, after.position < page.floor || after.position < page.zoneCreated || after.position > page.position {
            throw .changeTokenExpired(zone: zone)
        }
        let (entries, moreComing, next) = Self.trimmed(page.entries, limit: limit, after: after, position: page.position, place: \.place)
        var changed: [Record] = []
        var deleted: [DeletedRecord] = []
        let wanted = desiredKeys.map(Set.init)
        for entry in entries {
            let id = RecordID(recordName: entry.recordName, zoneID: zone)
            if entry.isDeletion {
                deleted.append(DeletedRecord(recordID: id, recordType: entry.recordType))
            } else if var record = page.records[entry.recordName] {
                if let wanted { record.fields = record.fields.filter { wanted.contains($0.key) } }
                changed.append(record)
            }
        }
        let nextToken = cursorSigner.sign(ChangeTokenPayload(storeIdentifier: engine.secret.storeIdentifier, scope: .zone(zone), after: next))
        return ZoneChanges(zone: zone, changedRecords: changed, deletedRecords: deleted, token: nextToken, moreComing: moreComing)
    }

    /// The token that stands for a zone's current state: a changes call with it returns what
    /// changes after now (the zone dictionaries' `syncToken`).
    ///
    /// ```swift
    /// let token = try store.currentChangeToken(for: notes)
    /// ```
    public func currentChangeToken(for zone: ZoneID = .default) throws(RecordStoreError) -> ChangeToken {
        try synchronously { try await self.currentChangeToken(for: zone) }
    }

    /// The token that stands for a zone's current state (async).
    ///
    /// ```swift
    /// let token = try await store.currentChangeToken(for: notes)
    /// ```
    public func currentChangeToken(for zone: ZoneID = .default) async throws(RecordStoreError) -> ChangeToken {
        guard !NulCharacter.isIn(zone.zoneName) else { throw .zoneNotFound(zone) }
        let page = try await metricsSlot.measure(.history) { () async throws(RecordStoreError) in
            try await engine.history(of: zone, after: .start, limit: 0, recordTypes: nil)
        }
        return cursorSigner.sign(ChangeTokenPayload(
            storeIdentifier: engine.secret.storeIdentifier, scope: .zone(zone), after: HistoryPosition(position: page.position)))
    }

    /// Which zones were created, changed or deleted since a database token; without a token,
    /// every zone (and the zone tombstones still kept).
    ///
    /// ```swift
    /// let database = try store.databaseChanges()
    /// database.changedZones   // [_defaultZone, Notes]
    /// ```
    public func databaseChanges(since token: ChangeToken? = nil, limit: Int = ZoneChanges.defaultLimit) throws(RecordStoreError) -> DatabaseChanges {
        try synchronously { try await self.databaseChanges(since: token, limit: limit) }
    }

    /// Which zones were created, changed or deleted since a database token (async).
    ///
    /// ```swift
    /// let database = try await store.databaseChanges(since: savedToken)
    /// ```
    public func databaseChanges(since token: ChangeToken? = nil, limit: Int = ZoneChanges.defaultLimit) async throws(RecordStoreError) -> DatabaseChanges {
        let limit = limit > 0 ? min(limit, Int.max - 1) : ZoneChanges.defaultLimit
        let after = try token.map { token throws(RecordStoreError) in try place(of: token, scope: .database) } ?? .start
        try await pruneHistory(now: Date(), onlyWhenDue: true)
        let page = try await metricsSlot.measure(.history) { () async throws(RecordStoreError) in try await engine.zoneHistory(after: after, limit: limit) }
        if token != nil, after.position < page.floor || after.position > page.position {
            throw .changeTokenExpired(zone: nil)
        }
        let (entries, moreComing, next) = Self.trimmed(page.entries, limit: limit, after: after, position: page.position, place: \.place)
        return DatabaseChanges(
            changedZones: entries.filter { !$0.isDeletion }.map(\.zone),
            deletedZones: entries.filter(\.isDeletion).map(\.zone),
            token: cursorSigner.sign(ChangeTokenPayload(storeIdentifier: engine.secret.storeIdentifier, scope: .database, after: next)),
            moreComing: moreComing)
    }

    /// Drops the tombstones older than ``historyRetention`` now (a store also does it by
    /// itself, at most hourly, before a changes call), and says how many it dropped and kept.
    /// Tokens from before the last dropped deletion expire.
    ///
    /// ```swift
    /// let pruning = try await store.pruneHistory()
    /// print("\(pruning.kept) tombstones kept")
    /// ```
    @discardableResult
    public func pruneHistory(now: Date = Date()) async throws(RecordStoreError) -> HistoryPruning {
        try await pruneHistory(now: now, onlyWhenDue: false) ?? HistoryPruning(dropped: 0, kept: 0)
    }

    /// Prunes, or (`onlyWhenDue`) only when the last pruning is an hour old or this handle made
    /// none; nil when it did not prune. The store's metrics hear what was dropped and kept. A
    /// read-only store (on a PostgreSQL standby) skips the pruning that is only due: the
    /// primary's handles prune.
    @discardableResult
    private func pruneHistory(now: Date, onlyWhenDue: Bool) async throws(RecordStoreError) -> HistoryPruning? {
        guard let cutoff = historyUpkeep.withLock({ $0.takePruning(now: now, onlyWhenDue: onlyWhenDue) }) else { return nil }
        let pruning: HistoryPruning
        do {
            pruning = try await metricsSlot.measure(.historyPrune) { () async throws(RecordStoreError) in
                try await engine.pruneHistory(deletedBefore: cutoff)
            }
        } catch {
            if onlyWhenDue, case .readOnlyStore = error { return nil }
            throw error
        }
        metricsSlot.current.recordPruning(dropped: pruning.dropped, kept: pruning.kept)
        return pruning
    }

    /// A page of history entries read with `limit + 1`: the first `limit`, whether more wait,
    /// and the place the next call starts after (the last entry's, or all of `position` read).
    private static func trimmed<Entry>(
        _ entries: [Entry], limit: Int, after: HistoryPosition, position: Int64, place: (Entry) -> HistoryPosition
    ) -> (entries: [Entry], moreComing: Bool, next: HistoryPosition) {
        guard entries.count > limit else { return (entries, false, HistoryPosition(position: max(position, after.position))) }
        let kept = Array(entries.prefix(limit))
        return (kept, true, kept.last.map(place) ?? after)
    }

    /// The place a token stands for, checked: this store's, and of the scope asked for.
    private func place(of token: ChangeToken, scope: ChangeTokenPayload.Scope) throws(RecordStoreError) -> HistoryPosition {
        let payload = try cursorSigner.open(token)
        guard payload.scope == scope else {
            throw .invalidChangeToken(.zoneMismatch(cursor: Self.scopeName(payload.scope), given: Self.scopeName(scope)))
        }
        // A token of the store this one was restored from, made after the backup: changes this store never had.
        guard cursorSigner.continues(payload) else {
            if case .zone(let zone) = scope { throw .changeTokenExpired(zone: zone) }
            throw .changeTokenExpired(zone: nil)
        }
        return payload.after
    }

    private static func scopeName(_ scope: ChangeTokenPayload.Scope) -> String {
        switch scope {
        case .zone(let zone): zone.zoneName
        case .database: "(the database's zone changes)"
        }
    }
}
