import GRDB
import GRDBSQLite
@_spi(StorageEngine) import RecordStoreCore

/// A deadline SQLite keeps itself: while it is installed, SQLite's progress handler reads the
/// clock every ``instructionsBetweenChecks`` virtual-machine instructions and stops the running
/// statement (`SQLITE_INTERRUPT`) once the deadline has passed.
///
/// This bounds what happens inside SQL, which a query's evaluation budget does not see: the
/// `query_test` calls that run `MATCHES` on every row of a scan (each one bounded by ICU's own
/// limit, but not their sum), and the scan itself.
///
/// ```swift
/// let deadline = SQLiteStatementDeadline(db, deadline: .now + .seconds(10))
/// let rows = try deadline.running { try Row.fetchAll(db, sql: "SELECT ...") }
/// ```
final class SQLiteStatementDeadline {
    /// Instructions SQLite runs between two readings of the clock: a reading costs tens of
    /// nanoseconds, a thousand instructions tens of microseconds.
    static let instructionsBetweenChecks: Int32 = 1000

    private let db: Database
    private let deadline: ContinuousClock.Instant
    /// Whether the progress handler stopped a statement because the deadline passed.
    private var passed = false

    init(_ db: Database, deadline: ContinuousClock.Instant) {
        self.db = db
        self.deadline = deadline
    }

    /// Runs `body` with the deadline installed on the connection, and removes it after. A
    /// statement stopped by it throws ``RecordStoreError/queryTooExpensive(_:)`` (`.deadline`).
    func running<T>(_ body: () async throws -> T) async throws -> T {
        guard let connection = db.sqliteConnection else { return try await body() }
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_progress_handler(connection, Self.instructionsBetweenChecks, { context in
            guard let context else { return 0 }
            let deadline = Unmanaged<SQLiteStatementDeadline>.fromOpaque(context).takeUnretainedValue()
            guard ContinuousClock.now >= deadline.deadline else { return 0 }
            deadline.passed = true
            return 1
        }, context)
        defer {
            sqlite3_progress_handler(connection, 0, nil, nil)
            withExtendedLifetime(self) {}   // the handler's context lives as long as the handler
        }
        do {
            return try await body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT && passed {
            throw RecordStoreError.queryTooExpensive(.deadline)
        }
    }
}
