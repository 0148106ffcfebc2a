import Foundation
import GRDB
@_spi(StorageEngine) import RecordStoreCore
@_spi(StorageEngine) import RecordStoreSQL

/// The change log in a SQLite store: one row per committed write transaction, holding what it
/// changed (``CommittedChangesCoding``), so that live queries in other processes (and other
/// handles in this one) learn which records changed. A commit too large to list is logged by its
/// record types (``longestListedCommit``).
///
/// The log's `sequence` counts commits one by one (`AUTOINCREMENT`: SQLite has one writer at a
/// time, so numbers follow commit order and a rolled-back number is reused by the next commit).
/// It keeps the last ``retainedCommits`` commits; a reader that fell further behind reads its
/// results again.
///
/// ```swift
/// try pool.write { db in
///     // ... the save ...
///     let sequence = try SQLiteChangeLog.append(changes, db)
/// }
/// ```
enum SQLiteChangeLog {
    /// The log table's name (`$` keeps it apart from record types).
    static let table = "$changes"
    /// How many commits the log keeps.
    static let retainedCommits: Int64 = 2_000
    /// The longest description logged with its records listed: a larger commit (an import's
    /// batch) logs its record types instead (``CommittedChanges/summarized``), and observers in
    /// other handles read those types again, as PostgreSQL's notifications do. Listing them
    /// would keep megabytes of names for an import that the change history already holds.
    static let longestListedCommit = 8_000

    /// Creates the log table when missing (every open).
    static func createTable(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS "\(table)" (sequence INTEGER PRIMARY KEY AUTOINCREMENT, changes BLOB NOT NULL)
            """)
    }

    /// Logs a commit in the write transaction under way; returns its sequence number. Every
    /// 256th commit also drops the rows past the retention.
    static func append(_ changes: CommittedChanges, _ db: Database) throws -> Int64 {
        let encoded = CommittedChangesCoding.encode(changes, listingAtMost: longestListedCommit)
        try db.execute(sql: "INSERT INTO \"\(table)\" (changes) VALUES (?)", arguments: [Data(encoded)])
        let sequence = db.lastInsertedRowID
        if sequence % 256 == 0 {
            try db.execute(sql: "DELETE FROM \"\(table)\" WHERE sequence <= ?", arguments: [sequence - retainedCommits])
        }
        return sequence
    }

    /// The sequence number of the last commit logged (0 for none).
    static func lastSequence(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT max(sequence) FROM \"\(table)\"") ?? 0
    }

    /// The commits logged after `sequence`, in order (at most `limit`).
    static func commits(after sequence: Int64, limit: Int, _ db: Database) throws -> [CommittedChanges] {
        let rows = try Row.fetchAll(
            db, sql: "SELECT sequence, changes FROM \"\(table)\" WHERE sequence > ? ORDER BY sequence LIMIT ?",
            arguments: [sequence, limit])
        return try rows.map { row in
            let data: Data = row["changes"]
            var changes = try CommittedChangesCoding.decode([UInt8](data))
            changes.sequence = row["sequence"]
            return changes
        }
    }
}

/// Where a SQLite engine's feed hears of commits by other handles and processes: it looks at the
/// change log every ``interval`` (and at once when woken by a commit in this process), and reads
/// what was logged since it last looked, with the saved records, in one read transaction.
///
/// Latency: a commit by another process reaches observers within ``interval`` plus the time
/// of that read; one by another handle in this process, at once.
final class SQLiteChangeSource: ChangeSource {
    /// How often the log is looked at while somebody observes.
    static let interval: Duration = .milliseconds(50)
    /// The most commits read in one look.
    static let commitsPerRead = 200

    private let pool: DatabasePool
    private let executor: SQLExecutor
    private let wakeup = Wakeup()

    init(pool: DatabasePool, executor: SQLExecutor) {
        self.pool = pool
        self.executor = executor
    }

    func lookNow() { wakeup.signal() }

    func follow(into feed: ChangeFeed) async {
        // Where the log ends now; a file that cannot be read is tried again (subscribers wait).
        var baseline: Int64?
        while baseline == nil {
            baseline = try? await pool.readReleasingFirst { db in try SQLiteChangeLog.lastSequence(db) }
            if baseline == nil {
                try? await Task.sleep(for: .seconds(1))
                if Task.isCancelled { return }
            }
        }
        feed.sourceIsFollowing(after: baseline)
        while !Task.isCancelled {
            await wakeup.wait(upTo: Self.interval)
            guard !Task.isCancelled else { return }
            await readNewCommits(into: feed)
        }
    }

    /// Reads the commits after the last one the feed delivered, with their saved records, and
    /// hands them over; a gap before the first (the log was pruned past it) loses track.
    private func readNewCommits(into feed: ChangeFeed) async {
        guard let last = feed.lastDeliveredSequence else { return }
        let executor = self.executor
        let commits: [CommittedChanges]
        do {
            commits = try await pool.readReleasingFirst { db in
                var commits = try SQLiteChangeLog.commits(after: last, limit: Self.commitsPerRead, db)
                let saved = commits.flatMap { $0.entries.filter { $0.kind != .deleted }.map(\.recordID) }
                let records = try SQLiteConnection.run(db) { try await executor.records(for: Array(Set(saved)), on: $0) }
                for index in commits.indices {
                    for entry in commits[index].entries where entry.kind != .deleted {
                        commits[index].savedRecords[entry.recordID] = records[entry.recordID]
                    }
                }
                return commits
            }
        } catch {
            return  // the next look tries again
        }
        guard let first = commits.first else { return }
        if first.sequence != last + 1 {
            feed.sourceLostTrack(resumingAfter: commits.last?.sequence)
            return
        }
        for commit in commits where feed.wants(sequence: commit.sequence) {
            feed.deliverFromSource(commit)
        }
        if commits.count == Self.commitsPerRead { wakeup.signal() }
    }
}
