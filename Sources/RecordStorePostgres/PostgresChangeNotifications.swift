// Part of the PostgreSQL trait: without it, this module is empty.
#if PostgreSQL
import PredicateLanguage
import Foundation
import Logging
import PostgresNIO
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// Live queries on PostgreSQL: every write transaction sends what it changed with `NOTIFY` on
/// the store's channel (delivered to every listening client when, and only when, it commits, in
/// commit order), and each engine that has observers `LISTEN`s on one connection of its own.
///
/// A transaction that notifies holds PostgreSQL's notification queue, database-wide, from its
/// commit's start to its end, its WAL flush included: notifying writers commit one at a time.
/// So a writer notifies only while anybody listens: each listening backend has a row in
/// `$listeners` (``PostgresLayout/listenersTable``), which the writer looks for in the statement
/// that notifies. The row names the zones its observers observe (``ObservedZones``: `zones` by
/// name, null for every zone, and `prefixes`), and a writer notifies only when a row names a
/// zone its commit changed: the writers of zones nobody observes never take turns. A listener
/// registers after its `LISTEN`, and writes its row again whenever its zones grow; each time it
/// then waits for the writers running at that moment to end (``PostgresChangePositions``'
/// barrier) before its observers read: a writer that looked before the row named its zone has
/// committed by then, and the observers' first reads see its changes; every later one sees the
/// row and notifies. A listener's row goes when it stops listening, and rows of backends that
/// are gone, when a listener registers.
///
/// A notification's payload is the transaction's ID (`txid_current()`, the commit's
/// ``CommittedChanges/sequence``), a space, and the base64 of ``CommittedChangesCoding``; a
/// commit too large for PostgreSQL's 8,000-byte payload sends its record types instead of its
/// records (``CommittedChanges/summarized``), and observers of those types read again.
///
/// ```swift
/// try await PostgresChangeNotifications.notify(changes, channel: channel, on: connection)
/// ```
enum PostgresChangeNotifications {
    /// The longest payload sent (PostgreSQL refuses 8,000 bytes and more).
    static let longestPayload = 7_900

    /// The channel of the store at a location (its database and schema).
    static func channel(for location: PostgresLocation) -> String {
        "query_changes_" + String(UInt64(bitPattern: PostgresEngine.lockKey(location)), radix: 16)
    }

    /// The condition under which a writer notifies: a backend listens for a zone its commit
    /// changed. `zones` is the parameter that holds them (``changedZones(_:)``).
    static func anybodyListens(zones: String) -> String {
        """
        EXISTS (SELECT 1 FROM \(PostgresDialect.quote(PostgresLayout.listenersTable)) AS l
            WHERE l.zones IS NULL OR \(zones)::text[] IS NULL OR l.zones && \(zones)::text[]
                OR EXISTS (SELECT 1 FROM unnest(l.prefixes) AS p(prefix), unnest(\(zones)::text[]) AS c(zone) WHERE starts_with(c.zone, p.prefix)))
        """
    }

    /// The zones a commit changed, as the parameter ``anybodyListens(zones:)`` reads: null when
    /// it changed zones it could not name (every listener hears it).
    static func changedZones(_ changes: CommittedChanges) -> SQLValue {
        guard let zones = ObservedZones.changed(by: changes) else { return .null }
        return .text(PostgresDialect.arrayLiteral(zones.sorted()))
    }

    /// Sends a commit's changes in the transaction under way, when anybody listens for a zone it
    /// changed; returns the transaction's ID (the commit's sequence).
    @discardableResult
    static func notify(_ changes: CommittedChanges, channel: String, on connection: PostgresSQLConnection) async throws -> Int64 {
        var sequence: Int64 = 0
        try await connection.forEachRow(SQLStatement(
            sql: "SELECT txid_current(), CASE WHEN \(anybodyListens(zones: "$3")) THEN pg_notify($1, txid_current()::text || ' ' || $2) END",
            arguments: [.text(channel), .text(payload(changes)), changedZones(changes)]
        )) { row in
            if case .integer(let value) = row.value(at: 0) { sequence = value }
            return false
        }
        return sequence
    }

    /// The part of a commit's payload after its transaction ID: the base64 of its changes,
    /// summarized to fit (base64 takes 4 characters for every 3 bytes).
    static func payload(_ changes: CommittedChanges) -> String {
        Data(CommittedChangesCoding.encode(changes, listingAtMost: longestPayload / 4 * 3)).base64EncodedString()
    }

    /// Registers the listening backend `pid` (after its `LISTEN`) for the commits of `zones`,
    /// removing the rows of backends that are gone, then waits for the writers running now to
    /// end: from then on every commit of those zones is either notified or under what the
    /// observers read first.
    static func register(listener pid: Int32, zones: ObservedZones, on connection: PostgresSQLConnection) async throws {
        let listeners = PostgresDialect.quote(PostgresLayout.listenersTable)
        try await connection.execute(SQLStatement(sql: "DELETE FROM \(listeners) WHERE pid NOT IN (SELECT pid FROM pg_stat_activity)"))
        try await connection.execute(SQLStatement(
            sql: """
                INSERT INTO \(listeners) (pid, zones, prefixes) VALUES ($1, $2::text[], $3::text[])
                    ON CONFLICT (pid) DO UPDATE SET since = now(), zones = excluded.zones, prefixes = excluded.prefixes
                """,
            arguments: [.integer(Int64(pid))] + rowArguments(zones)))
        try await PostgresChangePositions.waitForRunningWriters(on: connection, holdingTransactionIDs: false, atMost: nil)
    }

    /// Names other zones in the row of the listening backend `pid`; when they are more than
    /// `before` named, waits for the writers running now to end, as ``register(listener:zones:on:)``.
    static func listen(_ pid: Int32, for zones: ObservedZones, before: ObservedZones, on connection: PostgresSQLConnection) async throws {
        try await connection.execute(SQLStatement(
            sql: "UPDATE \(PostgresDialect.quote(PostgresLayout.listenersTable)) SET zones = $2::text[], prefixes = $3::text[] WHERE pid = $1",
            arguments: [.integer(Int64(pid))] + rowArguments(zones)))
        if !before.covers(zones) {
            try await PostgresChangePositions.waitForRunningWriters(on: connection, holdingTransactionIDs: false, atMost: nil)
        }
    }

    /// The `zones` and `prefixes` of a listener's row.
    private static func rowArguments(_ zones: ObservedZones) -> [SQLValue] {
        [zones.everyZone ? .null : .text(PostgresDialect.arrayLiteral(zones.names.sorted())), .text(PostgresDialect.arrayLiteral(zones.prefixes.sorted()))]
    }

    /// Removes the row of a backend that stopped listening.
    static func unregister(listener pid: Int32, on connection: PostgresSQLConnection) async throws {
        try await connection.execute(SQLStatement(
            sql: "DELETE FROM \(PostgresDialect.quote(PostgresLayout.listenersTable)) WHERE pid = $1", arguments: [.integer(Int64(pid))]))
    }

    /// Reads a payload ``notify(_:channel:on:)`` sent.
    static func changes(fromPayload payload: String) throws(RecordStoreError) -> CommittedChanges {
        let parts = payload.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let sequence = Int64(parts[0]), let bytes = Data(base64Encoded: String(parts[1])) else {
            throw .storage("a change notification on the store's channel is not one this version sent")
        }
        var changes = try CommittedChangesCoding.decode([UInt8](bytes))
        changes.sequence = sequence
        return changes
    }
}

/// Where a PostgreSQL engine's feed hears of commits: `LISTEN` on the store's channel, on a
/// connection of its own, for as long as somebody observes, registered for the zones the feed's
/// subscribers observe (``ChangeFeed/observedZones``: its row in `$listeners` follows them).
/// The saved records of a notification a subscriber wants are read (one query) before it is
/// delivered; one nobody wants is delivered unread. A dropped connection loses track
/// (observers read again) and listens anew a second later.
final class PostgresChangeSource: ChangeSource {
    typealias RecordReader = @Sendable ([RecordID]) async throws(RecordStoreError) -> [RecordID: Record]

    /// The primary's pool now (another after a failover: ``PostgresPrimary``).
    private let client: @Sendable () -> PostgresClient
    private let channel: String
    private let readRecords: RecordReader

    /// The listener's row, while it has one.
    private struct Listener {
        /// The listening backend, once its row is written.
        var pid: Int32?
        /// The zones the row names.
        var zones = ObservedZones.none
        /// Callers of ``observedZonesChanged(in:)`` waiting for the row to name their zones.
        var waiters: [(zones: ObservedZones, continuation: CheckedContinuation<Void, Never>)] = []

        /// Resumes the waiters whose zones the row names, or all of them (the row is gone: the
        /// feed loses track, and its subscribers read again).
        mutating func waitersServed(all: Bool = false) -> [CheckedContinuation<Void, Never>] {
            let served = waiters.filter { all || zones.covers($0.zones) }
            waiters.removeAll { all || zones.covers($0.zones) }
            return served.map(\.continuation)
        }
    }
    private let listener = LockedState(Listener())
    /// Wakes the task that keeps the row naming the feed's zones.
    private let zonesChanged = Wakeup()

    init(client: @escaping @Sendable () -> PostgresClient, channel: String, readRecords: @escaping RecordReader) {
        self.client = client
        self.channel = channel
        self.readRecords = readRecords
    }

    /// Notifications arrive as they are sent: there is nothing to look for.
    func lookNow() {}

    /// Writers notify only for the zones the listener's row names.
    var hearsObservedZonesOnly: Bool { true }

    func observedZonesChanged(in feed: ChangeFeed) async {
        let zones = feed.observedZones
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // Without a row, the registration names the zones of the moment.
            let now = listener.withLock { listener in
                if listener.pid == nil || listener.zones.covers(zones) { return true }
                listener.waiters.append((zones, continuation))
                return false
            }
            if now { continuation.resume() }
            // Fewer zones are written too, with nobody waiting.
            zonesChanged.signal()
        }
    }

    /// Keeps the listener's row naming the zones the feed's subscribers observe, until the task
    /// is cancelled. A write that fails loses track (the waiting subscribers go on, and read
    /// again when they hear it) and is tried again a second later.
    private func keepZones(of feed: ChangeFeed, listener pid: Int32) async {
        while !Task.isCancelled {
            await zonesChanged.wait(upTo: .seconds(60))
            if Task.isCancelled { return }
            let zones = feed.observedZones
            let before = listener.withLock { $0.zones }
            do {
                if zones != before {
                    try await client().withConnection { connection in
                        try await PostgresChangeNotifications.listen(pid, for: zones, before: before, on: PostgresSQLConnection(connection, logger: Self.logger))
                    }
                }
            } catch {
                let waiting = listener.withLock { $0.waitersServed(all: true) }
                feed.sourceLostTrack()
                for waiter in waiting { waiter.resume() }
                try? await Task.sleep(for: .seconds(1))
                zonesChanged.signal()
                continue
            }
            let served = listener.withLock { listener in
                listener.zones = zones
                return listener.waitersServed()
            }
            for waiter in served { waiter.resume() }
        }
    }

    func follow(into feed: ChangeFeed) async {
        // Subscribers wait for the source to follow before their first read; a server that does
        // not answer must not hold them forever (their reads then fail on their own).
        let waitedTooLong = LockedState(false)
        let patience = Task {
            try? await Task.sleep(for: Self.longestWaitToListen)
            guard !Task.isCancelled else { return }
            waitedTooLong.withLock { $0 = true }
            feed.sourceIsFollowing(after: nil)
        }
        defer { patience.cancel() }
        while !Task.isCancelled {
            let channel = self.channel
            let readRecords = self.readRecords
            let client = self.client
            // The listening backend, known before its row is written (`listener.pid` is set
            // once the row names the zones): its row is removed below even when the
            // registration failed halfway.
            let listeningBackend = LockedState<Int32?>(nil)
            do {
                try await client().withConnection { connection in
                    let pid = try await Self.backendID(of: connection)
                    listeningBackend.withLock { $0 = pid }
                    try await connection.listen(on: channel) { notifications in
                        // Writers notify only while a listener is registered for their zones.
                        let zones = feed.observedZones
                        try await client().withConnection { other in
                            try await PostgresChangeNotifications.register(listener: pid, zones: zones, on: PostgresSQLConnection(other, logger: Self.logger))
                        }
                        let served = self.listener.withLock { listener in
                            listener.pid = pid
                            listener.zones = zones
                            return listener.waitersServed()
                        }
                        for waiter in served { waiter.resume() }
                        patience.cancel()
                        // Commits made while nobody listened went unheard.
                        if waitedTooLong.withLock({ $0 }) { feed.sourceLostTrack() }
                        feed.sourceIsFollowing(after: nil)
                        // The row follows the zones from now on; its task ends with the listening.
                        let keeper = Task { await self.keepZones(of: feed, listener: pid) }
                        defer { keeper.cancel() }
                        self.zonesChanged.signal()
                        for try await notification in notifications {
                            var changes = try PostgresChangeNotifications.changes(fromPayload: notification.payload)
                            // A commit nobody observes is delivered without reading its records;
                            // one a subscriber came to want meanwhile is read after all.
                            let saved = changes.entries.filter { $0.kind != .deleted }.map(\.recordID)
                            if saved.isEmpty || feed.isWanted(changes) {
                                if !saved.isEmpty { changes.savedRecords = try await readRecords(saved) }
                                feed.deliverFromSource(changes)
                            } else if !feed.deliverFromSource(changes, recordsRead: false) {
                                changes.savedRecords = try await readRecords(saved)
                                feed.deliverFromSource(changes)
                            }
                        }
                    }
                }
            } catch {
                // Below: lose track, then listen again.
            }
            let waiting = listener.withLock { listener in
                listener.pid = nil
                listener.zones = .none
                return listener.waitersServed(all: true)
            }
            for waiter in waiting { waiter.resume() }
            if let pid = listeningBackend.withLock({ $0 }) {
                // In a task of its own: the following may have ended because it was cancelled.
                await Task {
                    _ = try? await client().withConnection { other in
                        try await PostgresChangeNotifications.unregister(listener: pid, on: PostgresSQLConnection(other, logger: Self.logger))
                    }
                }.value
            }
            if Task.isCancelled { return }
            // Commits may have gone by unheard; and subscribers must not wait while we listen anew.
            waitedTooLong.withLock { $0 = true }
            feed.sourceLostTrack()
            feed.sourceIsFollowing(after: nil)
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// How long subscribers wait for `LISTEN` before their first read goes ahead without it.
    static let longestWaitToListen: Duration = .seconds(10)

    private static let logger = Logger(label: "query.postgres.listen")

    /// The backend process ID of a connection (its row in `pg_stat_activity`).
    private static func backendID(of connection: PostgresConnection) async throws -> Int32 {
        for try await pid in try await connection.query("SELECT pg_backend_pid()", logger: logger).decode(Int32.self) {
            return pid
        }
        throw RecordStoreError.storage("the server did not give its backend's process ID")
    }
}
#endif
